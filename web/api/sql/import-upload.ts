import { mutationOptions, useMutation } from '@tanstack/react-query';
import { importStarted } from '#common/contract/imports.ts';
import { requestHeaders, sessionWatch, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** How a file is to be read; what is left out the server detects (decision 0069). */
export interface ImportUploadOptions {
  delimiter?: string;
  header?: boolean;
  encoding?: 'utf-8' | 'latin1';
  /** XLSX: the sheet to read, by name. */
  sheet?: string;
}

export interface ImportUploadRequest extends TableRef {
  file: File;
  options?: ImportUploadOptions;
  /** Bytes sent of the file's size, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

const UPLOAD_FAILED = 'The file could not be sent: check the connection and try again.';

/**
 * POST /api/sql/{db}/{schema}/{table}/import (multipart/form-data, the file in a part named `file`, then the options
 * given): answers the import's id. Sent with XMLHttpRequest, the one browser call that reports an upload's progress;
 * its headers are the API client's (bearer token, anti-forgery header), its failures the envelope's message.
 */
export function postImportUpload(request: ImportUploadRequest): Promise<ApiResult<{ id: string }>> {
  const path = `${tableApiPath(request)}/import`;
  const form = new FormData();
  const options = request.options ?? {};
  // The options first: the server reads the parts in order and the file's part streams to disk as it comes.
  if (options.delimiter !== undefined)
    form.append('delimiter', options.delimiter === '\t' ? 'tab' : options.delimiter);
  if (options.header !== undefined) form.append('header', String(options.header));
  if (options.encoding !== undefined) form.append('encoding', options.encoding);
  if (options.sheet !== undefined) form.append('sheet', options.sheet);
  form.append('file', request.file, request.file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const answered = sessionWatch();
    xhr.open('POST', path);
    // The browser writes the multipart Content-Type with its boundary itself.
    requestHeaders('POST', path, null, 'application/json').forEach((value, name) =>
      xhr.setRequestHeader(name, value),
    );
    xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded, event.total || request.file.size);
    xhr.onerror = () => resolve({ isSuccess: false, data: null, message: UPLOAD_FAILED });
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    xhr.onload = () => {
      answered(xhr.status);
      resolve(uploadAnswer(xhr.status, xhr.responseText));
    };
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The upload's answer as the client's other calls give it: the id, or the server's message with its status. */
export function uploadAnswer(status: number, text: string): ApiResult<{ id: string }> {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = undefined;
  }
  const message =
    typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
      ? body.message
      : null;
  if (status >= 200 && status < 300 && typeof body === 'object' && body !== null && 'data' in body) {
    const parsed = importStarted.safeParse(body.data);
    if (parsed.success) return { isSuccess: true, data: parsed.data, message };
  }
  return {
    isSuccess: false,
    data: null,
    message: message ?? (status === 413 ? 'The file is too large for the server.' : UPLOAD_FAILED),
    status,
  };
}

export const importUploadMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'import', 'upload'],
    mutationFn: async (request: ImportUploadRequest) => unwrap(await postImportUpload(request)),
  });

/** Uploads a file to import (the mutation's variables carry the progress callback). */
export function useImportUpload() {
  return useMutation(importUploadMutationOptions());
}
