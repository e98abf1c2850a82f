// msgpackr catches this and uses its JavaScript decoder (see package.json's description).
throw new Error('msgpackr-extract is not installed in DBUI: msgpackr uses its JavaScript decoder.');
