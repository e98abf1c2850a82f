import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import type { Verification } from '#common/contract/account.ts';
import { SiteHeader } from '#web/features/site/site-header.tsx';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';
import {
  browserEntryPath,
  databaseOfPath,
  linksMayShowDatabases,
  showsDatabaseSelect,
} from './database-select.tsx';
import { albumTable } from './test-tables.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fakeApi, ok } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

beforeEach(() => {
  api.on(
    'GET',
    '/api/sql',
    ok([
      { name: 'chinook', engine: 'sqlite' },
      { name: 'sales db', engine: 'postgres' },
    ]),
  );
  api.on('GET', '/api/sql/chinook', ok([albumTable]));
});

function Address() {
  const { pathname } = useLocation();
  return <output aria-label="address">{pathname}</output>;
}

const renderHeader = (verification: Verification, at: string) =>
  renderPage(
    <>
      <SiteHeader />
      <Address />
    </>,
    { at, session: verification },
  );

const address = () => screen.getByRole('status', { name: 'address' }).textContent;
const browsingAda: Verification = {
  ...sampleVerification,
  links: [...sampleVerification.links, '/db/chinook/*'],
};

describe('the Database dropdown', () => {
  it('reads the database of a browser path', () => {
    expect(databaseOfPath('/db/chinook/main/Album')).toBe('chinook');
    expect(databaseOfPath('/db/sales%20db')).toBe('sales db');
    expect(databaseOfPath('/admin/users')).toBeNull();
    expect(showsDatabaseSelect('/db/x')).toBe(true);
    expect(showsDatabaseSelect('/admin/roles')).toBe(true);
    expect(showsDatabaseSelect('/account')).toBe(false);
    expect(linksMayShowDatabases(['/account/*'])).toBe(false);
    expect(linksMayShowDatabases(['/db/chinook/main/Album'])).toBe(true);
    expect(linksMayShowDatabases(['*'])).toBe(true);
  });

  it('opens a database at its page, or at the first table when the links allow only tables', () => {
    expect(browserEntryPath(['/db/chinook/*'], 'chinook', undefined)).toBe('/db/chinook');
    expect(browserEntryPath(['*'], 'sales db', undefined)).toBe('/db/sales%20db');
    expect(browserEntryPath(['/db/chinook/main/*'], 'chinook', undefined)).toBeNull();
    expect(browserEntryPath(['/db/chinook/main/*'], 'chinook', [albumTable])).toBe('/db/chinook/main/Album');
  });

  it('shows the database of the address and goes to another one without its table', async () => {
    renderHeader(adminVerification, '/db/chinook/main/Album');
    const select = await screen.findByRole<HTMLInputElement>('combobox', { name: 'Database' });
    await waitFor(() => expect(select.value).toBe('chinook'));
    expect(select.getAttribute('placeholder')).toBe('Database');
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'sales db', hidden: true }));
    await waitFor(() => expect(address()).toBe('/db/sales%20db'));
  });

  it('is on administration pages too', async () => {
    renderHeader(adminVerification, '/admin/users');
    expect(await screen.findByRole('combobox', { name: 'Database' })).toBeTruthy();
  });

  it('is not on other pages', async () => {
    renderHeader(adminVerification, '/account');
    // The account menu asks for the databases; the dropdown still stays away.
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('combobox', { name: 'Database' })).toBeNull();
  });
});

describe("the account menu's Databases entry", () => {
  it('goes to the first database of a person whose links show one', async () => {
    renderHeader(browsingAda, '/account');
    fireEvent.click(screen.getByRole('button', { name: 'ada' }));
    const entry = await screen.findByRole('menuitem', { name: 'Databases' });
    expect(entry.getAttribute('href')).toBe('/db/chinook');
  });

  it('goes to the first table the links allow when they do not allow the database page', async () => {
    renderHeader({ ...sampleVerification, links: ['/account', '/db/chinook/main/*'] }, '/account');
    fireEvent.click(screen.getByRole('button', { name: 'ada' }));
    const entry = await screen.findByRole('menuitem', { name: 'Databases' });
    expect(entry.getAttribute('href')).toBe('/db/chinook/main/Album');
  });

  it('is not there, and nothing is asked, for a person whose links show no database', async () => {
    renderHeader(sampleVerification, '/account');
    fireEvent.click(screen.getByRole('button', { name: 'ada' }));
    await screen.findAllByRole('menuitem');
    expect(screen.queryByRole('menuitem', { name: 'Databases' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
