import { useState } from 'react';
import {
  Box,
  Button,
  Group,
  Modal,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowLeft, IconPlus } from '@tabler/icons-react';
import { GRID_CELLS, specOf, type ElementSpec } from '#web/features/creator/creator-state.ts';
import { ElementContent } from '#web/features/creator/element-content.tsx';
import classes from '#web/features/creator/creator-page.module.css';
import { alignments, flexAlignment, templates, type Alignment } from '#web/features/creator/templates.ts';

interface TemplatesModalProps {
  opened: boolean;
  onClose: () => void;
  /** Add Element: the element as configured in the preview. */
  onAdd: (spec: ElementSpec) => void;
}

/**
 * Spec 001 §2, §4: the extra-large Templates modal. The list of templates, then a template's preview with its width,
 * height, alignments and parameters; Back returns to the list, Add Element hands the element over to be placed.
 */
export function TemplatesModal({ opened, onClose, onAdd }: TemplatesModalProps) {
  const [spec, setSpec] = useState<ElementSpec | null>(null);

  function close() {
    setSpec(null);
    onClose();
  }

  return (
    <Modal opened={opened} onClose={close} size="xl" title="Templates" transitionProps={{ duration: 300 }}>
      {spec === null ? (
        <TemplateList onChoose={(chosen) => setSpec(chosen)} />
      ) : (
        <TemplatePreview
          spec={spec}
          onChange={setSpec}
          onBack={() => setSpec(null)}
          onAdd={() => {
            setSpec(null);
            onAdd(spec);
          }}
        />
      )}
    </Modal>
  );
}

function TemplateList({ onChoose }: { onChoose: (spec: ElementSpec) => void }) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Choose a template to preview it and set its size, alignment and text.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {templates.map((template) => (
          <UnstyledButton
            key={template.name}
            onClick={() => onChoose(specOf(template))}
            p="md"
            style={{
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 'var(--mantine-radius-md)',
            }}
          >
            <Text fw={600}>{template.name}</Text>
            <Text size="sm" c="dimmed">
              {template.width} vw wide, {template.height} vh tall
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

interface TemplatePreviewProps {
  spec: ElementSpec;
  onChange: (spec: ElementSpec) => void;
  onBack: () => void;
  onAdd: () => void;
}

function TemplatePreview({ spec, onChange, onBack, onAdd }: TemplatePreviewProps) {
  const size = (value: string | number, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;

  return (
    <Stack gap="md">
      <Text fw={600}>{spec.template}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <NumberInput
              label="Width"
              description="In vw (1 to 100)"
              min={1}
              max={GRID_CELLS}
              allowDecimal={false}
              clampBehavior="strict"
              value={spec.width}
              onChange={(value) => onChange({ ...spec, width: size(value, spec.width) })}
            />
            <NumberInput
              label="Height"
              description="In vh (1 to 100)"
              min={1}
              max={GRID_CELLS}
              allowDecimal={false}
              clampBehavior="strict"
              value={spec.height}
              onChange={(value) => onChange({ ...spec, height: size(value, spec.height) })}
            />
          </Group>
          <AlignmentChoice
            label="H. Alignment"
            value={spec.horizontalAlignment}
            onChange={(horizontalAlignment) => onChange({ ...spec, horizontalAlignment })}
          />
          <AlignmentChoice
            label="V. Alignment"
            value={spec.verticalAlignment}
            onChange={(verticalAlignment) => onChange({ ...spec, verticalAlignment })}
          />
          {spec.params.map((param) => (
            <TextInput
              key={param.name}
              label={param.friendlyName}
              maxLength={200}
              value={param.value}
              onChange={(event) => {
                const value = event.currentTarget.value;
                onChange({
                  ...spec,
                  params: spec.params.map((p) => (p.name === param.name ? { ...p, value } : p)),
                });
              }}
            />
          ))}
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="creator-preview-label">
            Preview (actual size)
          </Text>
          <Box style={{ overflow: 'auto', maxHeight: '50vh' }}>
            <Box
              role="img"
              aria-labelledby="creator-preview-label"
              aria-describedby="creator-preview-text"
              className={classes.preview}
              style={{
                width: `${spec.width}vw`,
                height: `${spec.height}vh`,
                justifyContent: flexAlignment[spec.horizontalAlignment],
                alignItems: flexAlignment[spec.verticalAlignment],
                ['--el-w' as string]: spec.width,
                ['--el-h' as string]: spec.height,
              }}
            >
              <ElementContent spec={spec} />
            </Box>
          </Box>
          <Text size="xs" c="dimmed" id="creator-preview-text">
            {spec.template} at {spec.width} vw by {spec.height} vh, aligned {spec.horizontalAlignment} across
            and {spec.verticalAlignment} down.
          </Text>
        </Stack>
      </SimpleGrid>
      <Group justify="space-between">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
          onClick={onBack}
        >
          Back
        </Button>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAdd}>
          Add Element
        </Button>
      </Group>
    </Stack>
  );
}

function AlignmentChoice({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Alignment;
  onChange: (value: Alignment) => void;
}) {
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(next) => {
        const chosen = alignments.find((a) => a.value === next);
        if (chosen) onChange(chosen.value);
      }}
    >
      <Group gap="md" mt={6}>
        {alignments.map((a) => (
          <Radio key={a.value} value={a.value} label={a.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}
