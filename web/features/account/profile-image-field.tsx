import { useState } from 'react';
import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { profileImageTypes, type UserImage } from '#common/contract/account.ts';
import { accountPageMessages as pm } from '#common/messages.ts';
import { imageSource, readProfileImage } from './profile-image-rules.ts';

interface ProfileImageFieldProps {
  /** The image shown: the saved one, or the one chosen since. */
  value: UserImage | null;
  /** Whether the value differs from the saved image (it is sent with Save). */
  changed: boolean;
  /** The initials shown when there is no image. */
  initials: string;
  onChange: (image: UserImage | null) => void;
}

/**
 * The profile image (spec 000 §2, §5): a preview, Choose image (PNG, JPEG, GIF or WebP up to 1 MB, read as base64
 * without the data-URL prefix) and Remove image. A file that breaks the rules is not taken, and the sentence says
 * why; the chosen image is saved with the rest of the details.
 */
export function ProfileImageField({ value, changed, initials, onChange }: ProfileImageFieldProps) {
  const [problem, setProblem] = useState<string | null>(null);

  const choose = async (file: File | null) => {
    if (!file) return;
    const reading = await readProfileImage(file);
    if (reading.ok) {
      setProblem(null);
      onChange(reading.image);
    } else {
      setProblem(reading.message);
    }
  };

  return (
    <Group align="center" gap="md" wrap="nowrap">
      <Avatar
        src={value ? imageSource(value) : null}
        alt={pm.profileImage}
        size={88}
        radius="50%"
        color="indigo"
        data-testid="profile-image-preview"
      >
        {initials}
      </Avatar>
      <Stack gap={6} style={{ minWidth: 0 }}>
        <Text fw={600} size="sm" component="h3" m={0}>
          {pm.profileImage}
        </Text>
        <Group gap="xs">
          <FileButton
            onChange={(file) => void choose(file)}
            accept={profileImageTypes.join(',')}
            inputProps={{ 'aria-label': pm.chooseImage }}
          >
            {(props) => (
              <Button {...props} size="xs" variant="light">
                {pm.chooseImage}
              </Button>
            )}
          </FileButton>
          {value && (
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setProblem(null);
                onChange(null);
              }}
            >
              {pm.removeImage}
            </Button>
          )}
        </Group>
        {problem ? (
          <Text size="xs" c="var(--mantine-color-error)" role="alert">
            {problem}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            {changed ? pm.imageNotSaved : pm.imageHint}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
