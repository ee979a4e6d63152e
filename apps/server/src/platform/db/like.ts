/** A value for `LIKE`/`ILIKE … ESCAPE '\'` that matches itself literally (%, _ and \ escaped). */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);
