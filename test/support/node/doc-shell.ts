// One bash shell for a document's examples: commands run one after another in one shell (so a
// variable or function one defines serves the next), each with its own stdout, stderr and exit
// status, and every HTTP answer curl received in it recorded from a trace. And a second shell,
// for a block that runs alongside (`# In another shell`), whose output is read as it comes.
import { type ChildProcess, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { type Head, parseHead } from "./doc-outputs.ts";
import { ProcessGroup } from "./npm-start.ts";

export interface Ran {
  stdout: string;
  stderr: string;
  status: number;
  /** The request line and head of every answer curl received, in order. */
  answers: (Head & { request: string })[];
}

/** curl, traced: `--trace-ascii` writes what it sent and received, and changes nothing else. */
const TRACED_CURL =
  'curl() { command curl --trace-ascii "$(mktemp "$DOCS_TRACE/XXXXXXXX")" "$@"; }';

/** The request line and answer heads of one curl trace (`--trace-ascii`). */
function tracedAnswers(trace: string): (Head & { request: string })[] {
  const chunks: { kind: string; data: string }[] = [];
  for (const line of trace.split("\n")) {
    const start = /^(=>|<=) (Send|Recv) (header|data)/.exec(line);
    if (start) chunks.push({ kind: `${start[2]} ${start[3]}`, data: "" });
    const data = /^[0-9a-f]{4}: (.*)$/.exec(line);
    const chunk = chunks.at(-1);
    if (data && chunk) chunk.data += data[1];
  }
  const answers: (Head & { request: string })[] = [];
  let request = "";
  let head: string[] = [];
  const flush = () => {
    if (head.length > 0) answers.push({ ...parseHead(head), request });
    head = [];
  };
  for (const { kind, data } of chunks) {
    if (kind === "Send header" && /^[A-Z]+ \S+ HTTP/.test(data))
      request = data.split(" HTTP")[0] ?? "";
    if (kind !== "Recv header") continue;
    if (data.startsWith("HTTP/")) flush();
    if (data.trim() !== "") head.push(data.trim());
  }
  flush();
  return answers;
}

export class DocShell {
  private readonly bash: ChildProcess;
  private readonly done = new Map<number, () => void>();
  private count = 0;

  /** Where each command, its output and its curl traces are kept while the shell lives. */
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), "doc-shell-"));

  constructor(
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.bash = spawn("bash", ["--noprofile", "--norc"], {
      cwd,
      env,
      detached: true,
      stdio: ["pipe", "pipe", "inherit"],
    });
    createInterface({ input: this.bash.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      this.done.get(Number(/^done (\d+)$/.exec(line)?.[1]))?.();
    });
    this.bash.stdin?.write(`${TRACED_CURL}\n`);
  }

  /** Why the shell can run nothing more: a command in it never finished. */
  private stuck: string | undefined;

  /**
   * Runs one command (stdin from /dev/null); rejects if it does not finish in `timeoutMs`, and
   * from then on at once, since the shell is still busy with it.
   */
  async run(command: string, timeoutMs: number): Promise<Ran> {
    if (this.stuck) throw new Error(`not run: ${this.stuck} never finished`);
    const n = ++this.count;
    const at = (ext: string) => path.join(this.dir, `${n}.${ext}`);
    const traces = path.join(this.dir, `${n}.trace`);
    mkdirSync(traces);
    writeFileSync(at("sh"), `${command}\n`);
    const finished = new Promise<void>((resolve) => this.done.set(n, resolve));
    this.bash.stdin?.write(
      `export DOCS_TRACE=${traces}; source ${at("sh")} > ${at("out")} 2> ${at("err")} < /dev/null; ` +
        `echo $? > ${at("status")}; echo "done ${n}"\n`,
    );
    const timer = sleep(timeoutMs).then(() => "timeout" as const);
    if ((await Promise.race([finished, timer])) === "timeout") {
      this.stuck = command.split("\n")[0];
      this.close();
      throw new Error(
        `did not finish within ${timeoutMs / 1000} s. A command that keeps running (a server, a ` +
          "receiver) belongs in a block whose first line is `# In another shell`.",
      );
    }
    return {
      stdout: readFileSync(at("out"), "utf8"),
      stderr: readFileSync(at("err"), "utf8"),
      status: Number(readFileSync(at("status"), "utf8")),
      // Traces in the order their requests ended.
      answers: readdirSync(traces)
        .map((file) => path.join(traces, file))
        .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
        .flatMap((file) => tracedAnswers(readFileSync(file, "latin1"))),
    };
  }

  close(): void {
    this.bash.stdin?.end();
    try {
      if (this.bash.pid) process.kill(-this.bash.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A block run in a shell of its own while the document goes on; stopped with Ctrl-C. */
export class OtherShell extends ProcessGroup {
  constructor(script: string, cwd: string, env: NodeJS.ProcessEnv) {
    super("bash", ["--noprofile", "--norc", "-c", script], cwd, env);
  }

  lines(): string[] {
    return this.output.split("\n").map((line) => line.trim());
  }

  /** Waits until `ready` holds for its output, or the time runs out. */
  async waitFor(ready: (lines: string[]) => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!ready(this.lines())) {
      if (Date.now() > deadline || !this.running) return ready(this.lines());
      await sleep(100);
    }
    return true;
  }
}
