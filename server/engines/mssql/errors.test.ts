import * as tarn from 'tarn';
import * as tedious from 'tedious';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { EngineError } from '#server/engines/engine-error.ts';
import { openMssql } from './connect.ts';
import { explainError } from './errors.ts';

/*
 * Errors shaped as tedious makes them: a RequestError with the server's number, state, class and message (the
 * messages are SQL Server's own, in English), a ConnectionError with a code. A refused connection is real.
 */

const context = { name: 'erp', statementTimeoutMs: 1500 };

function serverError(number: number, message: string): tedious.RequestError {
  const error = new tedious.RequestError(message, 'EREQUEST');
  error.number = number;
  error.state = 1;
  error.class = 14;
  error.serverName = 'db-7.internal';
  error.procName = '';
  error.lineNumber = 1;
  return error;
}

const explained = (error: unknown) => {
  const result = explainError(error, context);
  return result ? { status: result.statusCode, message: result.message } : null;
};

describe('explainError', () => {
  it.each([
    [
      2627,
      "Violation of PRIMARY KEY constraint 'PK_Artist'. Cannot insert duplicate key in object 'dbo.Artist'. The duplicate key value is (1).",
      409,
      '(1) already exists (PK_Artist): the value must be unique.',
    ],
    [
      2627,
      "Violation of UNIQUE KEY constraint 'UQ_Customer_Email'. Cannot insert duplicate key in object 'dbo.Customer'. The duplicate key value is (luisg@embraer.com.br).",
      409,
      '(luisg@embraer.com.br) already exists (UQ_Customer_Email): the value must be unique.',
    ],
    [
      2601,
      "Cannot insert duplicate key row in object 'dbo.Genre' with unique index 'IX_Genre_Name'. The duplicate key value is (Rock).",
      409,
      '(Rock) already exists (IX_Genre_Name): the value must be unique.',
    ],
    [
      547,
      'The INSERT statement conflicted with the FOREIGN KEY constraint "FK_AlbumArtistId". The conflict occurred in database "dbui_chinook_x", table "dbo.Artist", column \'ArtistId\'.',
      400,
      'The ArtistId given does not exist in Artist (FK_AlbumArtistId).',
    ],
    [
      547,
      'The UPDATE statement conflicted with the FOREIGN KEY SAME TABLE constraint "FK_EmployeeReportsTo". The conflict occurred in database "hr", table "dbo.Employee", column \'EmployeeId\'.',
      400,
      'The EmployeeId given does not exist in Employee (FK_EmployeeReportsTo).',
    ],
    [
      547,
      'The DELETE statement conflicted with the REFERENCE constraint "FK_AlbumArtistId". The conflict occurred in database "dbui_chinook_x", table "dbo.Album", column \'ArtistId\'.',
      409,
      'This row is still referenced by rows of Album (FK_AlbumArtistId); change or delete those first.',
    ],
    [
      547,
      'The INSERT statement conflicted with the CHECK constraint "CK_Track_Milliseconds". The conflict occurred in database "d", table "dbo.Track", column \'Milliseconds\'.',
      400,
      'Milliseconds: the value breaks the check CK_Track_Milliseconds.',
    ],
    [
      515,
      "Cannot insert the value NULL into column 'Name', table 'dbui_chinook_x.dbo.Track'; column does not allow nulls. INSERT fails.",
      400,
      'Name is required.',
    ],
    [
      515,
      "Cannot insert the value NULL into column 'Email', table 'crm.dbo.Customer'; column does not allow nulls. UPDATE fails.",
      400,
      'Email is required.',
    ],
    [
      2628,
      "String or binary data would be truncated in table 'dbui_chinook_x.dbo.Genre', column 'Name'. Truncated value: 'A very long genre name that goes on'.",
      400,
      'Name is too long for its column.',
    ],
    [8152, 'String or binary data would be truncated.', 400, 'A value is too long for its column.'],
    [
      245,
      "Conversion failed when converting the nvarchar value 'abc' to data type int.",
      400,
      "'abc' is not a valid int.",
    ],
    [8114, 'Error converting data type nvarchar to numeric.', 400, 'A value is not a valid numeric.'],
    [
      8169,
      'Conversion failed when converting from a character string to uniqueidentifier.',
      400,
      'A value is not a valid uniqueidentifier.',
    ],
    [
      220,
      'Arithmetic overflow error for data type tinyint, value = 300.',
      400,
      '300 is out of range for tinyint.',
    ],
    [
      8115,
      'Arithmetic overflow error converting numeric to data type numeric.',
      400,
      'A number is out of range for numeric.',
    ],
    [
      8115,
      'Arithmetic overflow error converting expression to data type int.',
      400,
      'A number is out of range for int.',
    ],
    [
      248,
      "The conversion of the nvarchar value '99999999999' overflowed an int column.",
      400,
      '99999999999 is out of range for int.',
    ],
    [
      241,
      'Conversion failed when converting date and/or time from character string.',
      400,
      'A date or time is not valid: use YYYY-MM-DD, HH:MM:SS or YYYY-MM-DDTHH:MM:SS.',
    ],
    [
      242,
      'The conversion of a nvarchar data type to a datetime data type resulted in an out-of-range value.',
      400,
      'A date or time is out of the range its column can hold.',
    ],
    [
      544,
      "Cannot insert explicit value for identity column in table 'Track' when IDENTITY_INSERT is set to OFF.",
      400,
      'The identity column of Track is numbered by the database and cannot be set.',
    ],
    [
      8102,
      "Cannot update identity column 'TrackId'.",
      400,
      'TrackId is numbered by the database and cannot be changed.',
    ],
    [
      271,
      'The column "LineTotal" cannot be modified because it is either a computed column or is the result of a UNION operator.',
      400,
      'LineTotal is computed by the database and cannot be set.',
    ],
    [
      229,
      "The INSERT permission was denied on the object 'Invoice', database 'sales', schema 'dbo'.",
      403,
      'The database does not allow INSERT on Invoice for this connection.',
    ],
    [
      208,
      "Invalid object name 'dbo.Gone'.",
      404,
      'The table dbo.Gone was not found; it may have been dropped. Reload the page.',
    ],
    [
      1205,
      'Transaction (Process ID 57) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
      409,
      'Another change to the same rows got in the way; try again.',
    ],
  ])('error %i', (number, message, status, text) => {
    expect(explained(serverError(number, message))).toEqual({ status, message: text });
  });

  it('keeps the driver error as the cause and repeats neither server nor database names', () => {
    const error = serverError(
      547,
      'The INSERT statement conflicted with the FOREIGN KEY constraint "FK_TrackAlbumId". The conflict occurred in database "secret_db", table "dbo.Album", column \'AlbumId\'.',
    );
    const result = explainError(error, context);
    expect(result).toBeInstanceOf(EngineError);
    expect(result?.cause).toBe(error);
    expect(result?.message).not.toMatch(/secret_db|db-7/);
  });

  it('reads the statement among several errors (Kysely rethrows an AggregateError as an array)', () => {
    const errors = [
      serverError(
        2627,
        "Violation of PRIMARY KEY constraint 'PK_Genre'. Cannot insert duplicate key in object 'dbo.Genre'. The duplicate key value is (1).",
      ),
      serverError(3621, 'The statement has been terminated.'),
    ];
    expect(explained(errors)).toEqual({
      status: 409,
      message: '(1) already exists (PK_Genre): the value must be unique.',
    });
    expect(explained(new AggregateError(errors))).toEqual({
      status: 409,
      message: '(1) already exists (PK_Genre): the value must be unique.',
    });
  });

  it('answers 504 for the request timeout and its cancel', () => {
    const timeout = {
      status: 504,
      message: 'The database did not answer within 1.5 seconds; narrow the search or try again.',
    };
    expect(
      explained(new tedious.RequestError('Timeout: Request failed to complete in 1500ms', 'ETIMEOUT')),
    ).toEqual(timeout);
    expect(explained(new tedious.RequestError('Canceled.', 'ECANCEL'))).toEqual(timeout);
    expect(explained(serverError(1222, 'Lock request time out period exceeded.'))).toEqual(timeout);
  });

  it('answers 503 for a connection that fails, times out or is refused a login', () => {
    const unreachable = { status: 503, message: 'The database erp is not reachable right now.' };
    expect(
      explained(
        new tedious.ConnectionError(
          'Failed to connect to db-7.internal:1433 - connect ECONNREFUSED 10.0.0.7:1433',
          'ESOCKET',
        ),
      ),
    ).toEqual(unreachable);
    expect(explained(new tedious.ConnectionError("Login failed for user 'sa'.", 'ELOGIN'))).toEqual(
      unreachable,
    );
    expect(
      explained(new tedious.ConnectionError('Failed to connect to db-7.internal:1433 in 5000ms', 'ETIMEOUT')),
    ).toEqual(unreachable);
    expect(explained(new tedious.ConnectionError('Connection lost - read ECONNRESET', 'ESOCKET'))).toEqual(
      unreachable,
    );
    expect(
      explained(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
    ).toEqual(unreachable);
    // Every pooled connection stayed taken for the call's whole budget: busy, not unreachable.
    expect(explained(new tarn.TimeoutError('operation timed out for an unknown reason'))).toEqual({
      status: 503,
      message: 'The database erp is busy right now; try again in a moment.',
    });
    expect(
      explained(serverError(4060, 'Cannot open database "erp" requested by the login. The login failed.')),
    ).toEqual(unreachable);
  });

  it('answers null for what it does not know', () => {
    expect(explained(serverError(102, "Incorrect syntax near 'x'."))).toBeNull();
    expect(explained(new Error('something else'))).toBeNull();
    expect(explained('text')).toBeNull();
    expect(explained(null)).toBeNull();
  });

  it('answers 503 for a real refused connection (port 1)', async () => {
    const db = openMssql('mssql://sa:secret@127.0.0.1:1/erp?encrypt=false', {
      statementTimeoutMs: 1000,
      poolSize: 1,
    });
    const quiet = console.error;
    console.error = () => {};
    try {
      const error = await sql`select 1 as one`.execute(db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(tedious.ConnectionError);
      expect(explained(error)).toEqual({
        status: 503,
        message: 'The database erp is not reachable right now.',
      });
    } finally {
      console.error = quiet;
      await db.destroy();
    }
  });
});
