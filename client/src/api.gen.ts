// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.


export interface paths {
  "/api/submit": {
    /**
     * Submit a program
     * @description Queues a run and answers 202 with its id; with ?wait=true holds the request until the record is terminal (200) or the hold expires (408, the run carries on).
     */
    post: operations["submit"];
  };
  "/api/submit/batch": {
    /**
     * Submit several programs
     * @description Each item is validated and queued alone; an invalid or over-quota item gets its own {error, message?}. ?wait=true is refused. Submission quotas: 429 when the key's rate or in-flight cap is reached.
     */
    post: operations["submitBatch"];
  };
  "/api/result/{id}": {
    /** Get a submission's record */
    get: operations["result"];
  };
  "/api/results": {
    /** Get several records */
    get: operations["results"];
  };
  "/api/result/{id}/events": {
    /**
     * Stream a submission's events (SSE)
     * @description text/event-stream: queued, started, stdout, stderr, test, then completed (the whole record) and the stream ends. Each event has `id:` (a per-submission sequence number from 1), `event:` and `data:` (JSON). Resume with Last-Event-ID (header) or ?last_event_id: only later events are sent. Concatenated stdout chunks equal the record's stdout.
     */
    get: operations["events"];
  };
  "/api/sessions": {
    /**
     * Open a live session (WebSocket)
     * @description Upgrades to a WebSocket that runs one program while the client talks to it: the first message is `start` (the body of POST /api/submit, admitted the same way), then `stdin`, `end` and `signal`; the server sends `accepted`, `stage`, `stdout`, `stderr`, `stdin_ack` and at the end `result` (the stored record). Flow control, caps and close codes: docs/live-sessions.md.
     */
    get: operations["session"];
  };
  "/api/sessions/{id}": {
    /**
     * Reconnect to a live session (WebSocket)
     * @description Attaches a new WebSocket to a session of the same account (`attached`, then the events from then on; the `result` at once when the run has ended).
     */
    get: operations["sessionReconnect"];
  };
  "/api/runtimes": {
    /** Languages and versions the ready nodes run */
    get: operations["runtimes"];
  };
  "/api/limits": {
    /**
     * The caps this key is held to
     * @description The key's plan with every cap it leaves to a default filled in: rate, in-flight cap, run, compile and checker limits, tests, batches, live sessions (max_sessions: sockets open at once), the output budget and the storage quota per shard.
     */
    get: operations["limits"];
  };
  "/api/languages": {
    /** Languages the ready nodes run */
    get: operations["languages"];
  };
  "/api/health": {
    /** Service health */
    get: operations["health"];
  };
  "/api/health/ready": {
    /** Readiness */
    get: operations["ready"];
  };
  "/api/openapi.json": {
    /** This document (no key needed) */
    get: operations["openapi"];
  };
  "/judge0/submissions": {
    /** Judge0: list all submissions (an authorized call; not enabled) */
    get: operations["judge0ListSubmissions"];
    /**
     * Judge0: create a submission
     * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name.
     */
    post: operations["judge0Create"];
  };
  "/judge0/submissions/{token}": {
    /** Judge0: a submission */
    get: operations["judge0Get"];
    /** Judge0: delete a submission (an authorized call; not enabled) */
    delete: operations["judge0DeleteSubmission"];
  };
  "/judge0/submissions/batch": {
    /** Judge0: several submissions */
    get: operations["judge0GetBatch"];
    /** Judge0: create several submissions */
    post: operations["judge0CreateBatch"];
  };
  "/judge0/languages": {
    /** Judge0: every language id a submission may name */
    get: operations["judge0Languages"];
  };
  "/judge0/languages/{id}": {
    /** Judge0: one language id a submission may name */
    get: operations["judge0Language"];
  };
  "/judge0/statuses": {
    /** Judge0: status ids */
    get: operations["judge0Statuses"];
  };
  "/judge0/about": {
    /** Judge0: about */
    get: operations["judge0About"];
  };
  "/judge0": {
    /** Judge0: home (Judge0's `head :ok`) */
    get: operations["judge0Home"];
  };
  "/judge0/languages/all": {
    /** Judge0: every language id, by name, none archived */
    get: operations["judge0AllLanguages"];
  };
  "/judge0/config_info": {
    /** Judge0: configuration: the key's plan's limits in Judge0's field names and units */
    get: operations["judge0ConfigInfo"];
  };
  "/judge0/workers": {
    /** Judge0: one entry per runtime (language@version) from the fleet's state */
    get: operations["judge0Workers"];
  };
  "/judge0/system_info": {
    /** Judge0: system information (empty: the edge is no host of ours to describe) */
    get: operations["judge0SystemInfo"];
  };
  "/judge0/statistics": {
    /** Judge0: statistics in Judge0's shape, nothing counted */
    get: operations["judge0Statistics"];
  };
  "/judge0/version": {
    /** Judge0: the Judge0 API version served */
    get: operations["judge0Version"];
  };
  "/judge0/isolate": {
    /** Judge0: the sandbox (a fixed text: isolate is not used) */
    get: operations["judge0Isolate"];
  };
  "/judge0/license": {
    /** Judge0: a fixed text */
    get: operations["judge0License"];
  };
  "/judge0/authenticate": {
    /** Judge0: check the key; nothing runs (401 when it is wrong) */
    post: operations["judge0Authenticate"];
  };
  "/judge0/authorize": {
    /** Judge0: authorization, which is not enabled here */
    post: operations["judge0Authorize"];
  };
  "/piston/api/v2/execute": {
    /**
     * Piston: run a program and wait for it
     * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name.
     */
    post: operations["pistonExecute"];
  };
  "/piston/api/v2/connect": {
    /**
     * Piston: a live session (WebSocket)
     * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name. Piston's interactive protocol: init, runtime, stage, data, signal, exit, error; close codes 4000-4005 and 4999 (docs/live-sessions.md).
     */
    get: operations["pistonConnect"];
  };
  "/piston/api/v2/runtimes": {
    /** Piston: runtimes */
    get: operations["pistonRuntimes"];
  };
}

export interface webhooks {
  "result": {
    /**
     * A submission ended
     * @description Sent to every active webhook endpoint of the key's project when a submission is completed or ends in error: the whole result record. Verify the signature over the raw body before parsing (the SDK's verifyWebhook, or the standardwebhooks package). Answer 2xx quickly: 5xx answers, timeouts and network errors are retried (3 attempts in all, about 1 s and 5 s apart); a 4xx stops; redirects are not followed (a failed attempt).
     */
    post: operations["resultWebhook"];
  };
}

export interface components {
  schemas: {
    SubmitRequest: {
      /** @description Language name or alias (python, py, c, cpp, c++, cxx, cc, java, javascript, js, typescript, ts, go, rust, rs, multi-file); see GET /api/languages */
      language: string;
      /** @description Source code, not empty, at most 65536 bytes as UTF-8 */
      code: string;
      /** @description Standard input, at most 262144 bytes as UTF-8 (default empty) */
      stdin?: string;
      /** @description A version or alias listed by GET /api/runtimes ("1.23", "1.23.4"); unknown → 400 listing the versions */
      version?: string;
      /**
       * @description base64 applies to code, stdin, expected_output and tests[].stdin/expected_output, and to the record's stdout/stderr
       * @enum {string}
       */
      encoding?: "utf8" | "base64";
      /** @description Judge a single run against this output with `compare` (not together with tests) */
      expected_output?: string;
      /**
       * @description How output is compared: exact, lines (default), tokens, float, identical (bytes), unordered (lines in any order), float_abs, float_rel or tokens_ci (ASCII case-insensitive tokens); see docs/api.md
       * @enum {string}
       */
      compare?: "exact" | "lines" | "tokens" | "float" | "identical" | "unordered" | "float_abs" | "float_rel" | "tokens_ci";
      /** @description compare=float: tolerance (absolute or relative, whichever is looser); float_abs: |a−e| ≤ ε; float_rel: |a−e| ≤ ε·|e|. > 0 and ≤ 1, default 1e-6 */
      float_epsilon?: number;
      /** @description Test cases run one by one against one compiled program, each in a fresh sandbox; a test's `points` (≥ 0) makes the request scored (record score and max_score; a test without points is then worth 0) */
      tests?: {
          name?: string;
          stdin?: string;
          expected_output?: string;
          points?: number;
        }[];
      /** @description Stop after the first failing test (default false) */
      stop_on_first_failure?: boolean;
      /** @description Narrow the plan's limits for this run; above a cap → 400 naming the field and the cap */
      limits?: {
        wall_time_ms?: number;
        cpu_time_ms?: number;
        memory_mb?: number;
        processes?: number;
        output_kb?: number;
        file_size_kb?: number;
      };
      /** @description Narrow the compile step's limits (compiled languages): each at most the key's plan's compile cap (default plan: the node's compile limits) */
      compile_limits?: {
        wall_time_ms?: number;
        cpu_time_ms?: number;
        memory_mb?: number;
      };
      /** @description Additional files beside the main source (relative paths, at most 32, 1 MiB in total) */
      files?: ({
          path: string;
          content: string;
          /** @enum {string} */
          encoding?: "utf8" | "base64";
        })[];
      /** @description Command-line arguments (at most 64, each ≤ 4096 bytes, no NUL) */
      args?: string[];
      /** @description true: the program's stderr is written into its stdout (one stream, in the order written); stderr stays empty */
      merge_stderr?: boolean;
      /** @description Compiler options from the language's allow-list (at most 32) */
      compiler_options?: string[];
      /** @description A testlib-style checker {language, code, files?, version?} judging each run instead of `compare`: run as `checker input.txt output.txt answer.txt`; exit 0 AC, 1 WA, 2 presentation error, 7 points; anything else is its own failure (WA, cause checker_failed) */
      checker?: {
        language: string;
        code: string;
        files?: ({
            path: string;
            content: string;
            /** @enum {string} */
            encoding?: "utf8" | "base64";
          })[];
        version?: string;
      };
      /** @description An interactor {language, code, files?, version?} for an interactive problem: each run, it and the program run at once, each one's stdout the other's stdin; run as `interactor input.txt output.txt` with the test's stdin as input.txt; its exit code is the verdict (as a checker's; its own failure: WA, cause interactor_failed). A checker, or `compare` against expected_output, then judges its output.txt, which is the record's stdout. Both sides waiting on each other: TLE, cause idleness */
      interactor?: {
        language: string;
        code: string;
        files?: ({
            path: string;
            content: string;
            /** @enum {string} */
            encoding?: "utf8" | "base64";
          })[];
        version?: string;
      };
    };
    BatchRequest: {
      submissions: components["schemas"]["SubmitRequest"][];
    };
    Judge0SubmissionRequest: {
      source_code?: string | null;
      language_id: number;
      compiler_options?: string | null;
      command_line_arguments?: string | null;
      stdin?: string | null;
      expected_output?: string | null;
      cpu_time_limit?: number | null;
      cpu_extra_time?: number | null;
      wall_time_limit?: number | null;
      memory_limit?: number | null;
      stack_limit?: number | null;
      max_processes_and_or_threads?: number | null;
      enable_per_process_and_thread_time_limit?: boolean | null;
      enable_per_process_and_thread_memory_limit?: boolean | null;
      max_file_size?: number | null;
      redirect_stderr_to_stdout?: boolean | null;
      enable_network?: boolean | null;
      number_of_runs?: number | null;
      callback_url?: string | null;
      additional_files?: string | null;
    };
    PistonExecuteRequest: {
      language: string;
      version: string;
      files: ({
          name?: string | null;
          content: string;
          encoding?: ("utf8" | "base64" | "hex") | null;
        })[];
      stdin?: string | null;
      args?: string[] | null;
      compile_timeout?: number | null;
      run_timeout?: number | null;
      compile_cpu_time?: number | null;
      run_cpu_time?: number | null;
      compile_memory_limit?: number | null;
      run_memory_limit?: number | null;
    };
    Judge0BatchRequest: {
      submissions: components["schemas"]["Judge0SubmissionRequest"][];
    };
    SessionStart: {
      language: string;
      code: string;
      stdin?: string;
      version?: string;
      /** @enum {string} */
      encoding?: "utf8" | "base64";
      /** @enum {string} */
      compare?: "exact" | "lines" | "tokens" | "float" | "identical" | "unordered" | "float_abs" | "float_rel" | "tokens_ci";
      float_epsilon?: number;
      stop_on_first_failure?: boolean;
      limits?: {
        wall_time_ms?: number;
        cpu_time_ms?: number;
        memory_mb?: number;
        processes?: number;
        output_kb?: number;
        file_size_kb?: number;
      };
      compile_limits?: {
        wall_time_ms?: number;
        cpu_time_ms?: number;
        memory_mb?: number;
      };
      files?: ({
          path: string;
          content: string;
          /** @enum {string} */
          encoding?: "utf8" | "base64";
        })[];
      args?: string[];
      merge_stderr?: boolean;
      compiler_options?: string[];
      /** @constant */
      type: "start";
    };
    SessionStdin: {
      /** @constant */
      type: "stdin";
      /** @description Input as UTF-8 text */
      data: string;
    } | {
      /** @constant */
      type: "stdin";
      /** @description Input as bytes, base64 (RFC 4648, padded) */
      data_b64: string;
    };
    SessionEnd: {
      /** @constant */
      type: "end";
    };
    SessionSignal: {
      /** @constant */
      type: "signal";
      /** @enum {string} */
      signal: "SIGINT" | "SIGTERM" | "SIGKILL";
    };
    SessionClientMessage: components["schemas"]["SessionStart"] | components["schemas"]["SessionStdin"] | components["schemas"]["SessionEnd"] | components["schemas"]["SessionSignal"];
    /** @enum {string} */
    Verdict: "IE" | "MLE" | "PLE" | "FSE" | "TLE" | "SIG" | "RE" | "WA" | "AC" | "SKIPPED";
    /** @enum {string} */
    JobStatus: "pending" | "running" | "completed" | "error";
    /** @enum {string} */
    OutputIntegrity: "complete" | "truncated_by_judge_limit" | "crash_mid_write" | "write_error";
    /** @enum {string} */
    Encoding: "utf8" | "base64";
    AppliedLimits: {
      wall_time_ms: number;
      cpu_time_ms: number;
      memory_bytes: number;
      processes: number;
      output_bytes: number;
    };
    OutputMismatch: {
      line: number;
      column: number | null;
      token: number | null;
      expected: string;
      actual: string;
      message: string;
    };
    CheckerEvidence: {
      exit_code: number | null;
      cause: string;
      message: string;
      points: number | null;
    };
    Evidence: {
      verdict_cause: string;
      /** @description runtime, kernel, supervisor, judge, checker or interactor (a custom checker's or an interactor's verdict, or its own failure) */
      verdict_actor: string;
      isolation_mode: string;
      controls_applied: string[];
      controls_missing: string[];
      cgroup: {
        memory_limit_bytes: number;
        memory_peak_bytes: number;
        oom_events: number;
        oom_kill_events: number;
        cpu_usage_usec: number;
        process_count: number;
        process_limit: number;
      };
      timing: {
        cpu_ms: number;
        cpu_time_ms: number;
        wall_ms: number;
        cpu_wall_ratio: number;
        divergence: string;
      };
      process_lifecycle: {
        reap_status: string;
        descendant_containment: string;
        zombie_count: number;
      };
      judge_actions: string[];
      collection_errors: string[];
      limits?: components["schemas"]["AppliedLimits"];
      mismatch?: components["schemas"]["OutputMismatch"];
      checker?: components["schemas"]["CheckerEvidence"];
      /** @description What the interactor said about the run (requests with an interactor): its exit code, how its run ended, the first 4 KiB of its stderr */
      interactor?: components["schemas"]["CheckerEvidence"];
    };
    TestRecord: {
      name: string;
      verdict: components["schemas"]["Verdict"];
      stdout: string;
      stderr: string;
      exit_code: number | null;
      signal: number | null;
      time_ms: number;
      memory_bytes: number;
      output_integrity: components["schemas"]["OutputIntegrity"];
      evidence: components["schemas"]["Evidence"];
      /** @description Scored requests (a test with points): the points this test earned */
      score?: number;
    };
    OutputBudget: {
      /** @description The submission's output budget: bytes of output kept for every test and both streams together */
      budget_bytes: number;
      stdout: {
        kept_bytes: number;
        dropped_bytes: number;
      };
      stderr: {
        kept_bytes: number;
        dropped_bytes: number;
      };
    };
    ResultRecord: {
      /** Format: uuid */
      id: string;
      language: string;
      job_status: components["schemas"]["JobStatus"];
      /** @description "1.0", or "1.1" when the request used a field added later */
      schema_version: string;
      /** Format: date-time */
      created_at: string;
      started_at: string | null;
      completed_at: string | null;
      verdict: components["schemas"]["Verdict"] | null;
      exit_code: number | null;
      signal: number | null;
      stdout: string | null;
      stderr: string | null;
      output_integrity: components["schemas"]["OutputIntegrity"] | null;
      error_message: string | null;
      cpu_time_secs: number | null;
      wall_time_secs: number | null;
      memory_peak_bytes: number | null;
      evidence: components["schemas"]["Evidence"] | null;
      /** @description Dispatches made, when more than one was needed */
      attempts?: number;
      /** @description Encoding of stdout/stderr here and in tests (present when the request asked for base64) */
      encoding?: components["schemas"]["Encoding"];
      /** @description Toolchain version that ran the program */
      version?: string;
      /** @description Per-test outcomes; the verdict is the first failing test's, else AC */
      tests?: components["schemas"]["TestRecord"][];
      /** @description Scored requests (a test with points): the points the tests earned */
      score?: number;
      /** @description Scored requests: the sum of every test's points, run or not */
      max_score?: number;
      /** @description Records of schema 1.1: the output kept and dropped against the submission's output budget */
      output_budget?: components["schemas"]["OutputBudget"];
    };
    Error: {
      /** @description What went wrong, naming the field */
      error: string;
      message?: string;
      /** @description What is available: the languages (unsupported language) or the versions of the language (unknown version) */
      available?: string[];
      /** @description Seconds to wait (429) */
      retry_after?: number;
      /** @description Pending submissions (503 queue full) */
      queue_depth?: number;
    };
    Accepted: {
      /** Format: uuid */
      id: string;
      /** @constant */
      job_status: "pending";
      /** @description Pending submissions ahead (absent on an idempotent replay whose record is not readable yet) */
      queue_depth?: number;
    };
    SyncTimeout: {
      /** @constant */
      error: "timeout";
      message: string;
      /** Format: uuid */
      id: string;
      /** @enum {string} */
      job_status: "pending" | "running";
    };
    Health: {
      /** @enum {string} */
      status: "ok" | "degraded";
      enforcement_mode: string;
      workers: number;
      queue_depth: number;
    };
    Ready: {
      /** @constant */
      ready: true;
      enforcement_mode: string;
      ready_nodes: number;
      workers: number;
      queue_depth: number;
    };
    NotReady: {
      /** @constant */
      error: "not ready";
      /** @constant */
      ready: false;
      reasons: string[];
    };
    Languages: string[];
    RuntimeIsolation: {
      /** @description Isolation controls every ready node offering this runtime enforces (a run is refused unless each is applied); sorted */
      controls: string[];
      /** @description Seccomp policy versions among those nodes, e.g. "allow-list/1" */
      seccomp_policies: string[];
      /** @description cgroup versions among those nodes (v1, v2) */
      cgroup_versions: string[];
      /** @description How those nodes give CPUs to run slots (dedicated, shared) */
      cpu_modes: string[];
    };
    Runtime: {
      language: string;
      /** @description The version a request names, e.g. "1.23.4" */
      version: string;
      aliases: string[];
      default: boolean;
      compiled: boolean;
      libraries: string[];
      isolation: components["schemas"]["RuntimeIsolation"];
    };
    Runtimes: components["schemas"]["Runtime"][];
    AcceptedOrRecord: components["schemas"]["Accepted"] | components["schemas"]["ResultRecord"];
    BatchItem: {
      /** Format: uuid */
      id: string;
      /** @constant */
      job_status: "pending";
    } | components["schemas"]["Error"];
    BatchAccepted: {
      submissions: components["schemas"]["BatchItem"][];
    };
    Results: {
      results: (components["schemas"]["ResultRecord"] | {
          id: string;
          /** @constant */
          error: "submission not found";
        })[];
    };
    WebhookPayload: {
      /** Format: uuid */
      id: string;
      language: string;
      job_status: components["schemas"]["JobStatus"];
      /** @description "1.0", or "1.1" when the request used a field added later */
      schema_version: string;
      /** Format: date-time */
      created_at: string;
      started_at: string | null;
      completed_at: string | null;
      verdict: components["schemas"]["Verdict"] | null;
      exit_code: number | null;
      signal: number | null;
      stdout: string | null;
      stderr: string | null;
      output_integrity: components["schemas"]["OutputIntegrity"] | null;
      error_message: string | null;
      cpu_time_secs: number | null;
      wall_time_secs: number | null;
      memory_peak_bytes: number | null;
      evidence: components["schemas"]["Evidence"] | null;
      /** @description Dispatches made, when more than one was needed */
      attempts?: number;
      /** @description Encoding of stdout/stderr here and in tests (present when the request asked for base64) */
      encoding?: components["schemas"]["Encoding"];
      /** @description Toolchain version that ran the program */
      version?: string;
      /** @description Per-test outcomes; the verdict is the first failing test's, else AC */
      tests?: components["schemas"]["TestRecord"][];
      /** @description Scored requests (a test with points): the points the tests earned */
      score?: number;
      /** @description Scored requests: the sum of every test's points, run or not */
      max_score?: number;
      /** @description Records of schema 1.1: the output kept and dropped against the submission's output budget */
      output_budget?: components["schemas"]["OutputBudget"];
      /**
       * @description Present on a test delivery (POST …/webhooks/{id}/test)
       * @constant
       */
      test?: true;
    };
    Plan: {
      name: string;
      rate_per_minute: number;
      max_in_flight: number;
      max_wall_time_ms: number;
      max_cpu_time_ms: number;
      max_memory_mb: number;
      max_processes: number;
      max_output_kb: number;
      max_tests: number;
      max_batch: number;
      /** @description A custom checker's wall limit; absent: 5000 */
      checker_wall_time_ms?: number;
      /** @description A custom checker's CPU limit; absent: 5000 */
      checker_cpu_time_ms?: number;
      /** @description A custom checker's memory limit; absent: 256 */
      checker_memory_mb?: number;
      /** @description The highest compile_limits.wall_time_ms a request may ask for; absent: 30000 (the node's) */
      compile_wall_time_ms?: number;
      /** @description The highest compile_limits.cpu_time_ms; absent: 60000 (the node's) */
      compile_cpu_time_ms?: number;
      /** @description The highest compile_limits.memory_mb; absent: 1024 (the node's) */
      compile_memory_mb?: number;
      /** @description Wall time a submission's tests may use in all, counted as they run; absent: 120000 */
      tests_wall_budget_ms?: number;
      /** @description A live session's longest life (its program's wall limit); absent: 300 */
      session_max_secs?: number;
      /** @description A live session ends after this long with nothing from its client or its program; absent: 60 */
      session_idle_secs?: number;
      /** @description Stdin a live session may send in all (KiB); absent: 16384 */
      session_stdin_kb?: number;
      /** @description Live-session WebSockets a key holds open at once, before start and reconnects included; past it an upgrade gets 429; absent: 10 */
      max_sessions?: number;
      /** @description A submission's output budget, every test and both streams together (KiB); absent: 2048, at most 8192 */
      output_budget_kb?: number;
      /** @description What one account may store in one submission shard (MiB); past it new submissions get 429; absent: 256 */
      shard_storage_mb?: number;
    };
    ServerSentEvent: {
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "queued";
      data: {
        position: number;
      };
    } | {
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "started";
      data: {
        /** Format: date-time */
        started_at: string;
      };
    } | {
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "stdout";
      data: {
        /** @description A chunk of output, in the record's encoding (utf8 text, or base64) */
        data: string;
        /** @description 0-based test index, when the request had tests */
        test?: number;
      };
    } | {
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "stderr";
      data: {
        /** @description A chunk of output, in the record's encoding (utf8 text, or base64) */
        data: string;
        /** @description 0-based test index, when the request had tests */
        test?: number;
      };
    } | ({
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "test";
      data: {
        name: string;
        verdict: components["schemas"]["Verdict"];
        stdout: string;
        stderr: string;
        exit_code: number | null;
        signal: number | null;
        time_ms: number;
        memory_bytes: number;
        output_integrity: components["schemas"]["OutputIntegrity"];
        evidence: components["schemas"]["Evidence"];
        /** @description Scored requests (a test with points): the points this test earned */
        score?: number;
        index: number;
      };
    }) | {
      /** @description Sequence number from 1; send it back as Last-Event-ID to resume */
      id: string;
      /** @constant */
      event: "completed";
      data: components["schemas"]["ResultRecord"];
    };
    Judge0Submission: {
      token?: string;
      status?: {
        id: number;
        description: string;
      };
      status_id?: number;
      stdout?: string | null;
      stderr?: string | null;
      compile_output?: string | null;
      message?: string | null;
      exit_code?: number | null;
      exit_signal?: number | null;
      time?: string | null;
      wall_time?: string | null;
      memory?: number | null;
      created_at?: string;
      finished_at?: string | null;
      language_id?: number | null;
      number_of_runs?: number;
    };
    Judge0Errors: {
      [key: string]: unknown;
    };
    PistonResult: {
      language: string;
      version: string;
      run?: {
        stdout: string;
        stderr: string;
        output: string;
        code: number | null;
        signal: string | null;
        message: string | null;
        status: string | null;
        cpu_time: number | null;
        wall_time: number | null;
        memory: number | null;
      };
      compile?: {
        stdout: string;
        stderr: string;
        output: string;
        code: number | null;
        signal: string | null;
        message: string | null;
        status: string | null;
        cpu_time: number | null;
        wall_time: number | null;
        memory: number | null;
      };
    };
    PistonRuntime: {
      language: string;
      version: string;
      aliases: string[];
      runtime?: string;
    };
    PistonError: {
      message: string;
      [key: string]: unknown;
    };
    Judge0ConfigInfo: {
      [key: string]: boolean | number | string[];
    };
    Judge0Worker: {
      queue: string;
      size: number;
      available: number;
      idle: number;
      working: number;
      paused: number;
      failed: number;
    };
    SessionLimits: {
      max_duration_ms: number;
      idle_timeout_ms: number;
      stdin_bytes: number;
      output_bytes: number;
    };
    SessionAccepted: {
      /** @constant */
      type: "accepted";
      /**
       * Format: uuid
       * @description The submission (GET /api/result/{id})
       */
      id: string;
      /**
       * Format: uuid
       * @description Names the session for a reconnect (GET /api/sessions/{id})
       */
      session_id: string;
      /** @description Stdin bytes that may be sent and not yet acknowledged */
      window: number;
      limits: components["schemas"]["SessionLimits"];
    };
    SessionAttached: {
      /** @constant */
      type: "attached";
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      session_id: string;
      /** @description Stdin bytes the program's node has taken: resend from there */
      taken: number;
    };
    SessionStage: {
      /** @constant */
      type: "stage";
      /** @enum {string} */
      stage: "compile" | "run";
    };
    SessionStdout: {
      /** @constant */
      type: "stdout";
      /** @description Output as written (UTF-8; bytes that are not are replaced) */
      data: string;
    };
    SessionStderr: {
      /** @constant */
      type: "stderr";
      /** @description Output as written (UTF-8; bytes that are not are replaced) */
      data: string;
    };
    SessionStdinAck: {
      /** @constant */
      type: "stdin_ack";
      taken: number;
    };
    SessionResult: {
      /** @constant */
      type: "result";
      record: components["schemas"]["ResultRecord"];
    };
    SessionError: {
      /** @constant */
      type: "error";
      /** @enum {string} */
      error: "invalid" | "not_started" | "started_twice" | "start_timeout" | "bad_stream" | "bad_signal" | "revoked" | "idle" | "window" | "stdin_cap" | "flood" | "rate_limited" | "unavailable" | "too_long" | "internal";
      message: string;
      /** @description A refused start: the HTTP status POST /api/submit would have answered; its body's fields ride here too */
      status?: number;
      /** @description A refused start: that answer's `error` */
      reason?: string;
      /** @description Seconds to wait (4429) */
      retry_after?: number;
      [key: string]: unknown;
    };
    SessionServerMessage: components["schemas"]["SessionAccepted"] | components["schemas"]["SessionAttached"] | components["schemas"]["SessionStage"] | components["schemas"]["SessionStdout"] | components["schemas"]["SessionStderr"] | components["schemas"]["SessionStdinAck"] | components["schemas"]["SessionResult"] | components["schemas"]["SessionError"];
  };
  responses: never;
  parameters: {
    /** @description true: hold the request until the record is terminal (200) or the hold expires (408) */
    Wait?: "true" | "false";
    /** @description A UUID; a repeat with the same key (per API key) returns the first submission's record, 202, and runs nothing */
    IdempotencyKey?: string;
    /** @description The submission's id */
    SubmissionId: string;
    /** @description The live session's id (`session_id` in its `accepted` message) */
    SessionId: string;
    /** @description Comma-separated submission ids (UUIDs), at most plan.max_batch */
    Ids: string;
    /** @description Resume: only events after this id are sent */
    LastEventId?: string;
    /** @description Judge0: text fields in base64 */
    Base64Encoded?: "true" | "false";
    /** @description Judge0: comma-separated fields to return, or * */
    Judge0Fields?: string;
    /** @description Judge0: the submission's token (our submission id) */
    Judge0Token: string;
    /** @description Judge0: comma-separated tokens */
    Judge0Tokens: string;
    /** @description Judge0: a language id, as GET /judge0/languages lists it */
    Judge0LanguageId: string;
    /** @description Same as the Last-Event-ID header (for EventSource clients that cannot set headers) */
    LastEventIdQuery?: string;
  };
  requestBodies: never;
  headers: {
    /** @description Requests allowed per window (one minute) for this key */
    RateLimitLimit: number;
    /** @description Requests left in the current window */
    RateLimitRemaining: number;
    /** @description Seconds until the window frees a request */
    RateLimitReset: number;
    /** @description The policy, e.g. "60;w=60" */
    RateLimitPolicy: string;
    /** @description Seconds to wait before retrying */
    RetryAfter: number;
    /** @description Time spent in the edge and its hops (edge;dur=…) */
    ServerTiming: string;
    /** @description true when the answer is the record of an earlier request with the same Idempotency-Key */
    IdempotentReplayed: "true";
  };
  pathItems: never;
}

export type $defs = Record<string, never>;

export type external = Record<string, never>;

export interface operations {

  /**
   * Submit a program
   * @description Queues a run and answers 202 with its id; with ?wait=true holds the request until the record is terminal (200) or the hold expires (408, the run carries on).
   */
  submit: {
    parameters: {
      query?: {
        wait?: components["parameters"]["Wait"];
      };
      header?: {
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SubmitRequest"];
      };
    };
    responses: {
      /** @description ?wait=true: the finished record */
      200: {
        headers: {
          "Server-Timing": components["headers"]["ServerTiming"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["ResultRecord"];
        };
      };
      /** @description Accepted; or, for a repeated Idempotency-Key, the existing record (Idempotent-Replayed: true) */
      202: {
        headers: {
          "Server-Timing": components["headers"]["ServerTiming"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["AcceptedOrRecord"];
        };
      };
      /** @description Invalid request: the message names the field (an unsupported language lists `available`) */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description ?wait=true: not finished within the hold; poll GET /api/result/{id} */
      408: {
        headers: {
          "Server-Timing": components["headers"]["ServerTiming"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["SyncTimeout"];
        };
      };
      /** @description Request body larger than 2 MiB */
      413: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Queue full; retry after Retry-After seconds */
      503: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "Server-Timing": components["headers"]["ServerTiming"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Submit several programs
   * @description Each item is validated and queued alone; an invalid or over-quota item gets its own {error, message?}. ?wait=true is refused. Submission quotas: 429 when the key's rate or in-flight cap is reached.
   */
  submitBatch: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["BatchRequest"];
      };
    };
    responses: {
      /** @description One entry per submission, in request order */
      202: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["BatchAccepted"];
        };
      };
      /** @description Invalid request (not a list, too many items, ?wait given) */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Request body too large */
      413: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON */
      415: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Get a submission's record */
  result: {
    parameters: {
      path: {
        id: components["parameters"]["SubmissionId"];
      };
    };
    responses: {
      /** @description The record (job_status pending, running, completed or error) */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["ResultRecord"];
        };
      };
      /** @description The id is not a UUID */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such submission for this account */
      404: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Get several records */
  results: {
    parameters: {
      query: {
        ids: components["parameters"]["Ids"];
      };
    };
    responses: {
      /** @description One entry per id, in request order */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Results"];
        };
      };
      /** @description ids missing, not UUIDs, or more than plan.max_batch */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Stream a submission's events (SSE)
   * @description text/event-stream: queued, started, stdout, stderr, test, then completed (the whole record) and the stream ends. Each event has `id:` (a per-submission sequence number from 1), `event:` and `data:` (JSON). Resume with Last-Event-ID (header) or ?last_event_id: only later events are sent. Concatenated stdout chunks equal the record's stdout.
   */
  events: {
    parameters: {
      query?: {
        last_event_id?: components["parameters"]["LastEventIdQuery"];
      };
      header?: {
        "Last-Event-ID"?: components["parameters"]["LastEventId"];
      };
      path: {
        id: components["parameters"]["SubmissionId"];
      };
    };
    responses: {
      /** @description The event stream */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "text/event-stream": components["schemas"]["ServerSentEvent"];
        };
      };
      /** @description The id is not a UUID, or Last-Event-ID is not a number */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such submission for this account */
      404: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Open a live session (WebSocket)
   * @description Upgrades to a WebSocket that runs one program while the client talks to it: the first message is `start` (the body of POST /api/submit, admitted the same way), then `stdin`, `end` and `signal`; the server sends `accepted`, `stage`, `stdout`, `stderr`, `stdin_ack` and at the end `result` (the stored record). Flow control, caps and close codes: docs/live-sessions.md.
   */
  session: {
    responses: {
      /** @description Switching Protocols: the session's WebSocket */
      101: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Missing or invalid API key: nothing runs */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not a WebSocket upgrade */
      426: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Reconnect to a live session (WebSocket)
   * @description Attaches a new WebSocket to a session of the same account (`attached`, then the events from then on; the `result` at once when the run has ended).
   */
  sessionReconnect: {
    parameters: {
      path: {
        id: components["parameters"]["SessionId"];
      };
    };
    responses: {
      /** @description Switching Protocols: the session's WebSocket */
      101: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Missing or invalid API key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such session for this account (or the id is not a UUID): nothing is upgraded */
      404: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not a WebSocket upgrade */
      426: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Languages and versions the ready nodes run */
  runtimes: {
    responses: {
      /** @description One entry per (language, version) */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Runtimes"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * The caps this key is held to
   * @description The key's plan with every cap it leaves to a default filled in: rate, in-flight cap, run, compile and checker limits, tests, batches, live sessions (max_sessions: sockets open at once), the output budget and the storage quota per shard.
   */
  limits: {
    responses: {
      /** @description The key's effective plan */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Plan"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Languages the ready nodes run */
  languages: {
    responses: {
      /** @description Canonical language names */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Languages"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Service health */
  health: {
    responses: {
      /** @description ok when a strict node is ready, else degraded */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Health"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Readiness */
  ready: {
    responses: {
      /** @description Ready */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Ready"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not ready, with the reasons */
      503: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["NotReady"];
        };
      };
    };
  };
  /** This document (no key needed) */
  openapi: {
    responses: {
      /** @description OpenAPI 3.1 document */
      200: {
        content: {
          "application/json": {
            openapi: string;
            info: {
              title: string;
              version: string;
              [key: string]: unknown;
            };
            [key: string]: unknown;
          };
        };
      };
    };
  };
  /** Judge0: list all submissions (an authorized call; not enabled) */
  judge0ListSubmissions: {
    responses: {
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Forbidden, as in a Judge0 without an authorization token; no body */
      403: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Judge0: create a submission
   * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name.
   */
  judge0Create: {
    parameters: {
      query?: {
        base64_encoded?: components["parameters"]["Base64Encoded"];
        wait?: components["parameters"]["Wait"];
        fields?: components["parameters"]["Judge0Fields"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Judge0SubmissionRequest"];
      };
    };
    responses: {
      /** @description {token}, or with wait=true the submission */
      201: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Judge0Submission"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Invalid or unsupported field(s), by name */
      422: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Judge0Errors"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: a submission */
  judge0Get: {
    parameters: {
      query?: {
        base64_encoded?: components["parameters"]["Base64Encoded"];
        fields?: components["parameters"]["Judge0Fields"];
      };
      path: {
        token: components["parameters"]["Judge0Token"];
      };
    };
    responses: {
      /** @description The submission's requested fields */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Judge0Submission"];
        };
      };
      /** @description Unknown field in fields, or output not UTF-8 without base64_encoded */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such submission */
      404: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: delete a submission (an authorized call; not enabled) */
  judge0DeleteSubmission: {
    parameters: {
      path: {
        token: components["parameters"]["Judge0Token"];
      };
    };
    responses: {
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Forbidden, as in a Judge0 without an authorization token; no body */
      403: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: several submissions */
  judge0GetBatch: {
    parameters: {
      query: {
        tokens: components["parameters"]["Judge0Tokens"];
        base64_encoded?: components["parameters"]["Base64Encoded"];
        fields?: components["parameters"]["Judge0Fields"];
      };
    };
    responses: {
      /** @description {submissions: [...]} in token order, null for unknown tokens */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
            submissions: (({
                token?: string;
                status?: {
                  id: number;
                  description: string;
                };
                status_id?: number;
                stdout?: string | null;
                stderr?: string | null;
                compile_output?: string | null;
                message?: string | null;
                exit_code?: number | null;
                exit_signal?: number | null;
                time?: string | null;
                wall_time?: string | null;
                memory?: number | null;
                created_at?: string;
                finished_at?: string | null;
                language_id?: number | null;
                number_of_runs?: number;
              }) | null)[];
          };
        };
      };
      /** @description No tokens, or too many */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: create several submissions */
  judge0CreateBatch: {
    parameters: {
      query?: {
        base64_encoded?: components["parameters"]["Base64Encoded"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Judge0BatchRequest"];
      };
    };
    responses: {
      /** @description Per item {token} or its field errors (at least one item created) */
      201: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": ({
              token: string;
            } | {
              [key: string]: unknown;
            })[];
        };
      };
      /** @description No submissions, or more than the plan's batch cap (Judge0's messages) */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No item was created: each item's field errors */
      422: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              [key: string]: unknown;
            }[];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: every language id a submission may name */
  judge0Languages: {
    responses: {
      /** @description [{id, name}]: our runtimes' ids, then each other Judge0 CE id of one of our languages with the runtime that stands in for it */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              id: number;
              name: string;
            }[];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: one language id a submission may name */
  judge0Language: {
    parameters: {
      path: {
        id: components["parameters"]["Judge0LanguageId"];
      };
    };
    responses: {
      /** @description {id, name, is_archived, source_file, compile_cmd, run_cmd}; the commands are the node's (docs/languages.md): null here */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
            id: number;
            name: string;
            is_archived: boolean;
            source_file: string | null;
            compile_cmd: string | null;
            run_cmd: string | null;
          };
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not an id a submission may name */
      404: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: status ids */
  judge0Statuses: {
    responses: {
      /** @description [{id, description}] */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              id: number;
              description: string;
            }[];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: about */
  judge0About: {
    responses: {
      /** @description The Judge0 API version served; every field a string */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
            version: string;
            homepage: string;
            source_code: string;
            maintainer: string;
          };
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: home (Judge0's `head :ok`) */
  judge0Home: {
    responses: {
      /** @description No body */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: every language id, by name, none archived */
  judge0AllLanguages: {
    responses: {
      /** @description [{id, name, is_archived}] */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              id: number;
              name: string;
              is_archived: boolean;
            }[];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: configuration: the key's plan's limits in Judge0's field names and units */
  judge0ConfigInfo: {
    responses: {
      /** @description Every field Judge0 CE 1.13.1 answers */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Judge0ConfigInfo"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: one entry per runtime (language@version) from the fleet's state */
  judge0Workers: {
    responses: {
      /** @description [{queue, size, available, idle, working, paused, failed}] */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              queue: string;
              size: number;
              available: number;
              idle: number;
              working: number;
              paused: number;
              failed: number;
            }[];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: system information (empty: the edge is no host of ours to describe) */
  judge0SystemInfo: {
    responses: {
      /** @description {} */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
            [key: string]: string;
          };
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: statistics in Judge0's shape, nothing counted */
  judge0Statistics: {
    responses: {
      /** @description Judge0's shape with zero counts */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
            [key: string]: unknown;
          };
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: the Judge0 API version served */
  judge0Version: {
    responses: {
      /** @description 1.13.1 */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "text/plain": string;
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: the sandbox (a fixed text: isolate is not used) */
  judge0Isolate: {
    responses: {
      /** @description Plain text */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "text/plain": string;
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: a fixed text */
  judge0License: {
    responses: {
      /** @description Plain text */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "text/plain": string;
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: check the key; nothing runs (401 when it is wrong) */
  judge0Authenticate: {
    responses: {
      /** @description The key is valid; no body */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Judge0: authorization, which is not enabled here */
  judge0Authorize: {
    responses: {
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description As a Judge0 without an authorization token: protected calls are forbidden; no body */
      403: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Piston: run a program and wait for it
   * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name.
   */
  pistonExecute: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["PistonExecuteRequest"];
      };
    };
    responses: {
      /** @description Piston's result: compile (compiled languages) and run stages */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["PistonResult"];
        };
      };
      /** @description Invalid request or unknown runtime */
      400: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["PistonError"];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The run did not finish in time; its native record stays available */
      504: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["PistonError"];
        };
      };
    };
  };
  /**
   * Piston: a live session (WebSocket)
   * @description The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name. Piston's interactive protocol: init, runtime, stage, data, signal, exit, error; close codes 4000-4005 and 4999 (docs/live-sessions.md).
   */
  pistonConnect: {
    responses: {
      /** @description Switching Protocols: the session's WebSocket */
      101: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: never;
      };
      /** @description Missing or invalid API key: nothing runs */
      401: {
        content: {
          "application/json": components["schemas"]["PistonError"];
        };
      };
      /** @description Not a WebSocket upgrade */
      426: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["PistonError"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Piston: runtimes */
  pistonRuntimes: {
    responses: {
      /** @description [{language, version, aliases, runtime?}] */
      200: {
        headers: {
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": {
              language: string;
              version: string;
              aliases: string[];
              runtime?: string;
            }[];
        };
      };
      /** @description Missing or invalid X-API-Key */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Rate limit or in-flight cap reached; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
          "RateLimit-Limit": components["headers"]["RateLimitLimit"];
          "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
          "RateLimit-Reset": components["headers"]["RateLimitReset"];
          "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A submission ended
   * @description Sent to every active webhook endpoint of the key's project when a submission is completed or ends in error: the whole result record. Verify the signature over the raw body before parsing (the SDK's verifyWebhook, or the standardwebhooks package). Answer 2xx quickly: 5xx answers, timeouts and network errors are retried (3 attempts in all, about 1 s and 5 s apart); a 4xx stops; redirects are not followed (a failed attempt).
   */
  resultWebhook: {
    parameters: {
      header: {
        /** @description The submission id; de-duplicate deliveries by it */
        "webhook-id": string;
        /** @description Unix seconds when signed; refuse one outside ±5 minutes of your clock */
        "webhook-timestamp": string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256>` signatures (one per active secret during a rotation) of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded secret after its `whsec_` prefix (Standard Webhooks) */
        "webhook-signature": string;
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["WebhookPayload"];
      };
    };
    responses: {
      /** @description Delivered */
      "2XX": {
        content: never;
      };
      /** @description Failed: 5xx and timeouts are retried, 4xx and 3xx are not */
      default: {
        content: never;
      };
    };
  };
}
