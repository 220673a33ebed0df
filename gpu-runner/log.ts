// Structured logs: one JSON object per line on stderr, with the job and
// session ids bound in by `child()` so every line of a job can be grepped.
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(base: LogFields = {}, write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }));
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, write),
  };
}
