import { describe, expect, it } from 'vitest';
import { mssqlConnectionConfig, mssqlPoolOptions } from './connect.ts';

const options = { statementTimeoutMs: 15_000, poolSize: 10 };

describe('mssqlConnectionConfig', () => {
  it('reads user, password, host, port and database from the URL', () => {
    const config = mssqlConnectionConfig('mssql://sa:S3cret%21%40x@db.example:14330/Sales%20DB', options);
    expect(config.server).toBe('db.example');
    expect(config.authentication).toEqual({
      type: 'default',
      options: { userName: 'sa', password: 'S3cret!@x' },
    });
    expect(config.options?.port).toBe(14330);
    expect(config.options?.database).toBe('Sales DB');
  });

  it('defaults to port 1433, encryption on and the certificate checked', () => {
    const config = mssqlConnectionConfig('sqlserver://sa:x@db/erp', options);
    expect(config.options?.port).toBe(1433);
    expect(config.options?.encrypt).toBe(true);
    expect(config.options?.trustServerCertificate).toBe(false);
  });

  it('reads encrypt and trustServerCertificate from the query string', () => {
    const config = mssqlConnectionConfig(
      'mssql://sa:x@127.0.0.1:1433/erp?encrypt=false&trustServerCertificate=true',
      options,
    );
    expect(config.options?.encrypt).toBe(false);
    expect(config.options?.trustServerCertificate).toBe(true);
    expect(
      mssqlConnectionConfig('mssql://sa:x@h/erp?encrypt=0&trustServerCertificate=1', options).options,
    ).toMatchObject({
      encrypt: false,
      trustServerCertificate: true,
    });
  });

  it('connects to the server default database when the URL names none', () => {
    expect(mssqlConnectionConfig('mssql://sa:x@db:1433', options).options?.database).toBeUndefined();
    expect(mssqlConnectionConfig('mssql://sa:x@db:1433/', options).options?.database).toBeUndefined();
  });

  it('reaches a named instance without a port', () => {
    const config = mssqlConnectionConfig('mssql://sa:x@db/erp?instanceName=SQLEXPRESS', options);
    expect(config.options?.instanceName).toBe('SQLEXPRESS');
    expect(config.options?.port).toBeUndefined();
  });

  it('takes an IPv6 address without its brackets', () => {
    expect(mssqlConnectionConfig('mssql://sa:x@[::1]:1433/erp', options).server).toBe('::1');
  });

  it('sets the session the adapter relies on: UTC dates, English messages, quoted identifiers, the statement timeout', () => {
    expect(
      mssqlConnectionConfig('mssql://sa:x@db/erp', { statementTimeoutMs: 2500, poolSize: 3 }).options,
    ).toMatchObject({
      requestTimeout: 2500,
      connectTimeout: 5000,
      useUTC: true,
      lowerCaseGuids: true,
      language: 'us_english',
      dateFormat: 'ymd',
      enableQuotedIdentifier: true,
    });
  });
});

describe('mssqlPoolOptions', () => {
  it('sizes the pool and fails at once when a connection cannot be made', () => {
    expect(mssqlPoolOptions({ statementTimeoutMs: 2500, poolSize: 3 })).toEqual({
      min: 0,
      max: 3,
      propagateCreateError: true,
      createTimeoutMillis: 6000,
      acquireTimeoutMillis: 3500,
    });
  });
});
