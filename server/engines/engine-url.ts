import path from 'node:path';
import type { EngineKind } from './engine.ts';

/** URL schemes and the engine each selects. */
const schemes: Record<string, EngineKind> = {
  'sqlite:': 'sqlite',
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
  'mssql:': 'mssql',
  'sqlserver:': 'mssql',
};

/** The engine a database URL selects, or null when the scheme is not one we know. */
export function engineKindOf(url: string): EngineKind | null {
  const scheme = /^[a-z]+:/i.exec(url)?.[0].toLowerCase();
  return (scheme && schemes[scheme]) || null;
}

/** The file behind `sqlite:PATH` (or `sqlite://PATH`), resolved against the working directory. */
export function sqliteFileOf(url: string): string {
  const rest = url.replace(/^sqlite:(\/\/)?/i, '');
  return rest === ':memory:' || rest === '' ? rest : path.resolve(rest);
}

/** A URL with its password hidden, safe to print. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
