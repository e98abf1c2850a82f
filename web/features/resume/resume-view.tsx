import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Card,
  Container,
  Grid,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconLink, IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import { resume, splitInterests } from '#common/content/resume.ts';
import type { EducationEntry, WorkEntry } from '#common/content/resume.ts';

/** 'Mar 2021' from '2021-03'. */
function monthYear(value: string): string {
  return new Date(`${value}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The founder's resume (spec 001 §2): header, summary, then the cards. */
export function ResumeView() {
  const interests = splitInterests(resume.interests);
  return (
    <Container size="lg" py={{ base: 'lg', sm: 'xl' }}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} component="header">
        <Title order={1}>{resume.name}</Title>
        <Text size="lg" c="dimmed" mt={4}>
          {resume.title}
        </Text>
        <Group gap="lg" mt="md" wrap="wrap">
          <Contact icon={<IconMail size={16} aria-hidden="true" />}>
            <Anchor href={`mailto:${resume.email}`}>{resume.email}</Anchor>
          </Contact>
          <Contact icon={<IconPhone size={16} aria-hidden="true" />}>
            <Anchor href={`tel:${resume.phone.replace(/[^+\d]/g, '')}`}>{resume.phone}</Anchor>
          </Contact>
          <Contact icon={<IconMapPin size={16} aria-hidden="true" />}>
            <Text span>{resume.location}</Text>
          </Contact>
          <Contact icon={<IconLink size={16} aria-hidden="true" />}>
            <Anchor href={resume.link.href} target="_blank" rel="noopener noreferrer">
              {resume.link.label}
            </Anchor>
          </Contact>
        </Group>
      </Paper>

      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'xl' }}
        mt="lg"
        component="section"
        aria-labelledby="resume-summary"
      >
        <Title order={2} id="resume-summary" fz="h3" mb="xs">
          Summary
        </Title>
        <Text style={{ lineHeight: 1.7 }}>{resume.summary}</Text>
      </Paper>

      <Grid mt="lg" gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <ResumeCard id="resume-work" title="Work History">
              <Stack gap="lg">
                {resume.works.map((work) => (
                  <Work key={`${work.company}-${work.startDate}`} work={work} />
                ))}
              </Stack>
            </ResumeCard>
            <ResumeCard id="resume-education" title="Education">
              <Stack gap="lg">
                {resume.educations.map((education) => (
                  <Education key={education.degree} education={education} />
                ))}
              </Stack>
            </ResumeCard>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <ResumeCard id="resume-skills" title="Skills">
              <Stack gap="md">
                {resume.skills.map((group) => (
                  <div key={group.heading}>
                    <Title order={3} fz="sm" mb={6}>
                      {group.heading}
                    </Title>
                    <Group gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                      {group.values.map((value) => (
                        <li key={value}>
                          <Badge variant="light" tt="none" size="lg" radius="sm">
                            {value}
                          </Badge>
                        </li>
                      ))}
                    </Group>
                  </div>
                ))}
              </Stack>
            </ResumeCard>
            <ResumeCard id="resume-soft-skills" title="Soft Skills">
              <List spacing={4} size="sm">
                {resume.softSkills.map((skill) => (
                  <List.Item key={skill}>{skill}</List.Item>
                ))}
              </List>
            </ResumeCard>
            <ResumeCard id="resume-achievements" title="Achievements">
              <List spacing={6} size="sm">
                {resume.achievements.map((achievement) => (
                  <List.Item key={achievement}>{achievement}</List.Item>
                ))}
              </List>
            </ResumeCard>
            <ResumeCard id="resume-interests" title="Interests">
              <SimpleGrid cols={2} spacing="md">
                {[interests.first, interests.second].map((column, index) => (
                  <List key={index} spacing={4} size="sm" data-testid={`interests-column-${index + 1}`}>
                    {column.map((interest) => (
                      <List.Item key={interest}>{interest}</List.Item>
                    ))}
                  </List>
                ))}
              </SimpleGrid>
            </ResumeCard>
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

function Contact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap">
      {icon}
      {children}
    </Group>
  );
}

function ResumeCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} id={id} fz="h3" mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Work({ work }: { work: WorkEntry }) {
  return (
    <div>
      <Title order={3} fz="h5">
        {work.position}
      </Title>
      <Text size="sm" fw={600}>
        {work.company}
      </Text>
      <Text size="sm" c="dimmed">
        <time dateTime={work.startDate}>{monthYear(work.startDate)}</time> –{' '}
        {work.endDate === null ? 'Present' : <time dateTime={work.endDate}>{monthYear(work.endDate)}</time>}
      </Text>
      <List size="sm" spacing={4} mt="xs">
        {work.tasks.map((task) => (
          <List.Item key={task}>{task}</List.Item>
        ))}
      </List>
    </div>
  );
}

function Education({ education }: { education: EducationEntry }) {
  return (
    <div>
      <Title order={3} fz="h5">
        {education.degree}
      </Title>
      <Text size="sm" fw={600}>
        {education.school}
      </Text>
      <Text size="sm" c="dimmed">
        {education.startDate === education.endDate
          ? education.endDate
          : `${education.startDate} – ${education.endDate}`}
      </Text>
      <Text size="sm" mt={4}>
        {education.summary}
      </Text>
    </div>
  );
}
