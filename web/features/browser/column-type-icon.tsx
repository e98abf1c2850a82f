import {
  IconBinary,
  IconCalendar,
  IconClock,
  IconFingerprint,
  IconLetterCase,
  IconNumbers,
  IconPhoto,
  IconPuzzle,
  IconToggleLeft,
  type TablerIcon,
} from '@tabler/icons-react';
import type { TypeGroup } from '#common/contract/sql.ts';

/** One icon per type group of common/contract/sql.ts (spec 000 §2: "a chip per column with a type icon"). */
const icons: Record<TypeGroup, TablerIcon> = {
  Text: IconLetterCase,
  Binary: IconBinary,
  Number: IconNumbers,
  Date: IconCalendar,
  Time: IconClock,
  bit: IconToggleLeft,
  image: IconPhoto,
  guid: IconFingerprint,
  Other: IconPuzzle,
};

/** The group's name as a person reads it (the spec writes bit, image and guid in lower case). */
const labels: Record<TypeGroup, string> = {
  Text: 'Text',
  Binary: 'Binary',
  Number: 'Number',
  Date: 'Date',
  Time: 'Time',
  bit: 'Bit',
  image: 'Image',
  guid: 'GUID',
  Other: 'Other',
};

/** The icon component of a type group, for pieces that draw it themselves (grid headers, editor fields). */
export function typeIconOf(group: TypeGroup): TablerIcon {
  return icons[group];
}

/** The type group's readable name: the icon's accessible label. */
export function typeGroupLabel(group: TypeGroup): string {
  return labels[group];
}

export interface ColumnTypeIconProps {
  group: TypeGroup;
  size?: number;
  /** False when text beside the icon already says the type: the icon is then hidden from assistive technology. */
  labelled?: boolean;
}

/** A column's type icon, labelled with its type group (and the group as a hover title). */
export function ColumnTypeIcon({ group, size = 16, labelled = true }: ColumnTypeIconProps) {
  const Icon = icons[group];
  const label = labels[group];
  return labelled ? (
    <Icon size={size} stroke={1.75} role="img" aria-label={label} title={label} />
  ) : (
    <Icon size={size} stroke={1.75} aria-hidden="true" focusable="false" />
  );
}
