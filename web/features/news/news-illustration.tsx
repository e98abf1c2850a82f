import type { ComponentType } from 'react';
import { IconArrowsJoin, IconPuzzle, IconRefresh, IconSparkles } from '@tabler/icons-react';
import type { IconProps } from '@tabler/icons-react';
import type { NewsImage } from '#common/content/news.ts';
import classes from '#web/features/news/news.module.css';

const motifIcons: Record<NewsImage['motif'], ComponentType<IconProps>> = {
  operations: IconArrowsJoin,
  agile: IconRefresh,
  challenges: IconPuzzle,
  future: IconSparkles,
};

/** An article's picture, drawn (the site has no photographs); named by the image's description. */
export function NewsIllustration({ image, height }: { image: NewsImage; height: number }) {
  const Icon = motifIcons[image.motif];
  return (
    <div className={classes.illustration} style={{ height }} role="img" aria-label={image.alt}>
      <Icon size={Math.round(height * 0.42)} stroke={1.4} aria-hidden="true" />
    </div>
  );
}
