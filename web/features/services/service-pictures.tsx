import type { ReactNode } from 'react';
import type { ServiceId } from '#common/content/service-summaries.ts';
import classes from '#web/features/services/service-pictures.module.css';

/*
 * Spec 001 §3: a service has an image. Each is a small drawing (no image files, so nothing more to download and
 * nothing the home page loads: this module is only in the service page's chunk), coloured by CSS variables that
 * change with the colour scheme. What each shows is described by its alt text in common/content/services.ts.
 */

/** A drum of data: the body, its top and `bands` rings. */
function Drum({
  x,
  y,
  width,
  height,
  bands = 0,
}: {
  x: number;
  y: number;
  width: number;
  height: number;
  bands?: number;
}) {
  const rx = width / 2;
  const ry = Math.round(width / 8);
  const step = height / (bands + 1);
  return (
    <g>
      <path className={classes.paper} d={`M${x} ${y} v${height} a${rx} ${ry} 0 0 0 ${width} 0 v${-height}`} />
      <ellipse className={classes.paper} cx={x + rx} cy={y} rx={rx} ry={ry} />
      {Array.from({ length: bands }, (_, i) => (
        <path
          key={i}
          className={classes.line}
          d={`M${x} ${y + step * (i + 1)} a${rx} ${ry} 0 0 0 ${width} 0`}
        />
      ))}
    </g>
  );
}

const drawings: Record<ServiceId, ReactNode> = {
  database: (
    <>
      <Drum x={62} y={62} width={112} height={112} bands={2} />
      <circle className={classes.accent} cx={150} cy={104} r={5} />
      <circle className={classes.accent} cx={150} cy={141} r={5} />
      <circle className={classes.accent} cx={150} cy={178} r={5} />
      <rect className={classes.paper} x={196} y={56} width={96} height={74} rx={8} />
      <path className={classes.thin} d="M208 118 H280" />
      <path className={classes.accentLine} d="M210 110 L230 94 L248 100 L278 72" />
      <circle className={classes.accent} cx={246} cy={170} r={22} />
      <path className={classes.accentLine} d="M235 170 l8 8 l14 -15" />
    </>
  ),
  cloud: (
    <>
      <path
        className={classes.paper}
        d="M112 102 a26 26 0 0 1 4 -51 a36 36 0 0 1 68 -10 a34 34 0 0 1 26 61 z"
      />
      <path className={classes.accentLine} d="M153 70 v-7 a7 7 0 0 1 14 0 v7" />
      <rect className={classes.accent} x={147} y={70} width={26} height={20} rx={4} />
      <path
        className={classes.line}
        d="M160 102 V126 M85 126 H235 M85 126 V150 M160 126 V150 M235 126 V150"
      />
      {[60, 135, 210].map((x) => (
        <g key={x}>
          <rect className={classes.paper} x={x} y={150} width={50} height={46} rx={6} />
          <path className={classes.line} d={`M${x + 10} 164 h22 M${x + 10} 182 h22`} />
          <circle className={classes.ink} cx={x + 40} cy={164} r={3.5} />
        </g>
      ))}
    </>
  ),
  'custom-apps': (
    <>
      <rect className={classes.paper} x={34} y={48} width={180} height={140} rx={10} />
      <path className={classes.line} d="M34 74 H214" />
      {[50, 63, 76].map((cx) => (
        <circle key={cx} className={classes.ink} cx={cx} cy={61} r={4} />
      ))}
      <path className={classes.line} d="M100 108 l-22 22 l22 22 M148 108 l22 22 l-22 22" />
      <path className={classes.accentLine} d="M134 102 l-20 56" />
      {/* A gear: ten teeth drawn as a thick dashed ring (2π·24 ≈ 150.8, so 15.08 a tooth). */}
      <circle
        className={classes.line}
        cx={258}
        cy={86}
        r={24}
        style={{ strokeWidth: 10, strokeDasharray: '7.5 7.58', strokeLinecap: 'butt' }}
      />
      <circle className={classes.paper} cx={258} cy={86} r={20} />
      <circle className={classes.line} cx={258} cy={86} r={7} />
      <rect className={classes.accent} x={230} y={160} width={28} height={28} rx={4} />
      <rect className={classes.paper} x={264} y={160} width={28} height={28} rx={4} />
      <rect className={classes.accent} x={247} y={128} width={28} height={28} rx={4} />
    </>
  ),
  ai: (
    <>
      <path
        className={classes.paper}
        d="M56 60 h88 a16 16 0 0 1 16 16 v48 a16 16 0 0 1 -16 16 h-54 l-22 20 v-20 h-12 a16 16 0 0 1 -16 -16 v-48 a16 16 0 0 1 16 -16 z"
      />
      <path
        className={classes.accent}
        d="M100 78 q4 16 20 22 q-16 6 -20 22 q-4 -16 -20 -22 q16 -6 20 -22 z"
      />
      <path className={classes.thin} d="M160 88 C188 88 192 76 218 76 M160 112 C190 112 196 164 220 166" />
      <rect className={classes.paper} x={218} y={36} width={62} height={78} rx={6} />
      <path className={classes.thin} d="M230 56 h38 M230 70 h38 M230 84 h26" />
      <Drum x={220} y={156} width={60} height={34} bands={1} />
    </>
  ),
  'web-mobile': (
    <>
      <rect className={classes.paper} x={30} y={52} width={180} height={116} rx={8} />
      <path className={classes.paper} d="M14 168 h212 l-12 16 h-188 z" />
      <rect className={classes.soft} x={44} y={66} width={152} height={12} rx={3} />
      <rect className={classes.ink} x={44} y={88} width={88} height={10} rx={3} />
      <path className={classes.thin} d="M44 108 h120" />
      {[44, 96, 148].map((x) => (
        <rect key={x} className={classes.accent} x={x} y={122} width={44} height={32} rx={4} />
      ))}
      <rect className={classes.paper} x={232} y={64} width={66} height={124} rx={12} />
      <path className={classes.line} d="M255 76 h20" />
      <rect className={classes.soft} x={242} y={88} width={46} height={9} rx={3} />
      <rect className={classes.ink} x={242} y={104} width={32} height={7} rx={2} />
      <rect className={classes.accent} x={242} y={118} width={46} height={24} rx={4} />
      <rect className={classes.accent} x={242} y={150} width={46} height={24} rx={4} />
    </>
  ),
  consult: (
    <>
      <path
        className={classes.paper}
        d="M64 28 h62 a14 14 0 0 1 14 14 v22 a14 14 0 0 1 -14 14 h-40 l-16 14 v-14 h-6 a14 14 0 0 1 -14 -14 v-22 a14 14 0 0 1 14 -14 z"
      />
      {[78, 95, 112].map((cx) => (
        <circle key={cx} className={classes.ink} cx={cx} cy={53} r={4} />
      ))}
      <path
        className={classes.accent}
        d="M194 20 h62 a14 14 0 0 1 14 14 v22 a14 14 0 0 1 -14 14 h-6 v14 l-16 -14 h-40 a14 14 0 0 1 -14 -14 v-22 a14 14 0 0 1 14 -14 z"
      />
      <path className={classes.line} d="M196 38 h52 M196 52 h36" />
      <rect className={classes.paper} x={50} y={102} width={220} height={112} rx={8} />
      <path className={classes.line} d="M114 152 H146 M174 152 H206" />
      <circle className={classes.accent} cx={100} cy={152} r={14} />
      <path className={classes.accentLine} d="M93 152 l5 5 l10 -10" />
      <circle className={classes.accent} cx={160} cy={152} r={14} />
      <circle className={classes.paper} cx={220} cy={152} r={14} />
      <path className={classes.thin} d="M85 186 h30 M145 186 h30 M205 186 h30" />
    </>
  ),
};

/** The picture of a service, named for those who cannot see it by `alt`. */
export function ServicePicture({ id, alt }: { id: ServiceId; alt: string }) {
  return (
    <svg className={classes.art} viewBox="0 0 320 240" role="img" aria-label={alt} focusable="false">
      <circle className={classes.soft} cx={160} cy={120} r={104} />
      {drawings[id]}
    </svg>
  );
}
