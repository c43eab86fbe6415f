// Generated from the `admin` operations of docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.


export interface paths {
  "/admin/projects": {
    /** List projects */
    get: operations["adminListProjects"];
    /** Create a project */
    post: operations["adminCreateProject"];
  };
  "/admin/projects/{id}": {
    /** Show a project */
    get: operations["adminShowProject"];
  };
  "/admin/projects/{id}/keys": {
    /** List a project's keys */
    get: operations["adminListProjectKeys"];
    /**
     * Create an API key in a project
     * @description The plain key is in this answer only. Importing a value that is already a key of this project answers 200 with it.
     */
    post: operations["adminCreateKey"];
  };
  "/admin/keys": {
    /** List API keys */
    get: operations["adminListKeys"];
  };
  "/admin/keys/{id}": {
    /** Show a key */
    get: operations["adminShowKey"];
    /**
     * Revoke a key
     * @description Requests with the key are refused from this moment; its submissions in flight end `error` and their runs are cancelled at their nodes.
     */
    delete: operations["adminDeleteKey"];
  };
  "/admin/keys/{id}/revoke": {
    /**
     * Revoke a key
     * @description Requests with the key are refused from this moment; its submissions in flight end `error` and their runs are cancelled at their nodes.
     */
    post: operations["adminRevokeKey"];
  };
  "/admin/keys/{id}/rotate": {
    /**
     * Give a key a new value
     * @description Same key id, project, name and plan; the old value is refused at once and usage counters start afresh.
     */
    post: operations["adminRotateKey"];
  };
  "/admin/keys/{id}/usage": {
    /** A key's usage */
    get: operations["adminKeyUsage"];
  };
  "/admin/usage": {
    /** Every key's usage */
    get: operations["adminUsage"];
  };
  "/admin/submissions/{id}/cancel": {
    /**
     * Cancel a submission in flight
     * @description It ends `error` with the reason, and its run is stopped at its node. The body may be left out.
     */
    post: operations["adminCancelSubmission"];
  };
  "/admin/plans": {
    /** List plans */
    get: operations["adminListPlans"];
  };
  "/admin/plans/{name}": {
    /** Show a plan */
    get: operations["adminShowPlan"];
    /**
     * Create or change a plan
     * @description Fields not given keep their value; a new plan starts from the default plan's.
     */
    put: operations["adminSetPlan"];
  };
  "/admin/nodes": {
    /** List nodes */
    get: operations["adminListNodes"];
    /**
     * Register a node by its URL
     * @description The edge calls the node's NodeInfo before it answers.
     */
    post: operations["adminRegisterNode"];
  };
  "/admin/nodes/{id}/drain": {
    /**
     * Drain a node
     * @description It takes no new work at once; its running and queued runs finish.
     */
    post: operations["adminDrainNode"];
  };
  "/admin/nodes/{id}/approve": {
    /**
     * Approve a pending node
     * @description A node enrolled with a require_approval token joins rotation.
     */
    post: operations["adminApproveNode"];
  };
  "/admin/nodes/{id}/revoke": {
    /**
     * Revoke a node's credential
     * @description It leaves rotation at once, its runs go to other nodes; it must enroll again with a new token.
     */
    post: operations["adminRevokeNode"];
  };
  "/admin/nodes/{id}": {
    /** Forget a node */
    delete: operations["adminRemoveNode"];
  };
  "/admin/enrollment-tokens": {
    /** List enrollment tokens */
    get: operations["adminListEnrollmentTokens"];
    /**
     * Create an enrollment token
     * @description What a new node presents to join the fleet (POST /fleet/enroll). The plain token is in this answer only.
     */
    post: operations["adminCreateEnrollmentToken"];
  };
  "/admin/enrollment-tokens/{id}": {
    /** Revoke an enrollment token */
    delete: operations["adminRevokeEnrollmentToken"];
  };
  "/admin/fleet": {
    /** The fleet's status */
    get: operations["adminFleet"];
  };
  "/admin/metrics": {
    /**
     * The edge's request metrics (Prometheus)
     * @description Requests, latency and 429/503 answers per route (HEAD answers the headers only).
     */
    get: operations["adminMetrics"];
  };
  "/admin/projects/{id}/webhooks": {
    /** List a project's webhook endpoints */
    get: operations["adminListWebhooks"];
    /**
     * Add a webhook endpoint to a project
     * @description The signing secret is in this answer only.
     */
    post: operations["adminCreateWebhook"];
  };
  "/admin/projects/{id}/webhooks/deliveries/{sub}": {
    /**
     * A submission's delivery log
     * @description Every attempt per endpoint: time, status, latency, outcome, error.
     */
    get: operations["adminWebhookDeliveries"];
  };
  "/admin/projects/{id}/webhooks/{wid}": {
    /** Show a webhook endpoint */
    get: operations["adminShowWebhook"];
    /** Remove a webhook endpoint */
    delete: operations["adminRemoveWebhook"];
    /**
     * Change a webhook endpoint
     * @description active: false pauses deliveries, true resumes them.
     */
    patch: operations["adminUpdateWebhook"];
  };
  "/admin/projects/{id}/webhooks/{wid}/rotate": {
    /**
     * Give an endpoint a new signing secret
     * @description The previous secrets keep signing until the grace period ends (deliveries carry every signature meanwhile).
     */
    post: operations["adminRotateWebhook"];
  };
  "/admin/projects/{id}/webhooks/{wid}/test": {
    /**
     * Send one signed test delivery
     * @description Answered with the receiver's status; a failed delivery is still a 200 (delivered: false).
     */
    post: operations["adminTestWebhook"];
  };
  "/admin/projects/{id}/webhooks/{wid}/deliveries/{sub}": {
    /**
     * A submission's delivery log
     * @description Every attempt per endpoint: time, status, latency, outcome, error.
     */
    get: operations["adminWebhookEndpointDeliveries"];
  };
}

export type webhooks = Record<string, never>;

export interface components {
  schemas: {
    CreateProjectRequest: {
      name: string;
      account_id?: string;
    };
    CreateKeyRequest: {
      name?: string;
      key?: string;
      plan?: string;
    };
    PlanUpdateRequest: {
      rate_per_minute?: number;
      max_in_flight?: number;
      max_wall_time_ms?: number;
      max_cpu_time_ms?: number;
      max_memory_mb?: number;
      max_processes?: number;
      max_output_kb?: number;
      max_tests?: number;
      max_batch?: number;
      checker_wall_time_ms?: number;
      checker_cpu_time_ms?: number;
      checker_memory_mb?: number;
      compile_wall_time_ms?: number;
      compile_cpu_time_ms?: number;
      compile_memory_mb?: number;
      tests_wall_budget_ms?: number;
      session_max_secs?: number;
      session_idle_secs?: number;
      session_stdin_kb?: number;
      max_sessions?: number;
      output_budget_kb?: number;
      shard_storage_mb?: number;
    };
    CancelSubmissionRequest: {
      reason?: string;
    };
    RegisterNodeRequest: {
      /** Format: uri */
      url: string;
      token: string;
      name?: string;
      pool?: string;
    };
    EnrollmentTokenRequest: {
      name?: string;
      ttl_secs?: number;
      max_uses?: number;
      max_slots?: number;
      require_approval?: boolean;
    };
    CreateWebhookRequest: {
      url: string;
      secret?: string;
      active?: boolean;
      description?: string;
    };
    UpdateWebhookRequest: {
      url?: string;
      active?: boolean;
      description?: string;
    };
    RotateWebhookRequest: {
      secret?: string;
      grace_seconds?: number;
    };
    /** @enum {string} */
    JobStatus: "pending" | "running" | "completed" | "error";
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
    Project: {
      id: string;
      name: string;
      account_id: string;
      /** Format: date-time */
      created_at: string;
    };
    ApiKey: {
      key_id: string;
      name: string;
      project_id: string;
      account_id: string;
      tier: string;
      /** @description The key's plan ("default" when none was named) */
      plan: string;
      /** @description Identifies the key's value without revealing it */
      fingerprint: string;
      /** Format: date-time */
      created_at: string;
    };
    CreatedKey: {
      key_id: string;
      name: string;
      project_id: string;
      account_id: string;
      tier: string;
      /** @description The key's plan ("default" when none was named) */
      plan: string;
      /** @description Identifies the key's value without revealing it */
      fingerprint: string;
      /** Format: date-time */
      created_at: string;
      /** @description The plain key: shown here only */
      key: string;
    };
    RotatedKey: {
      key_id: string;
      name: string;
      project_id: string;
      account_id: string;
      tier: string;
      /** @description The key's plan ("default" when none was named) */
      plan: string;
      /** @description Identifies the key's value without revealing it */
      fingerprint: string;
      /** Format: date-time */
      created_at: string;
      /** @description The new plain value: shown here only */
      key: string;
      /** Format: date-time */
      rotated_at: string;
      previous_fingerprint: string;
    };
    DeletedKey: {
      /** @constant */
      deleted: true;
      /** @constant */
      revoked: true;
      key_id: string;
      /** @description Submissions of the key in flight that were ended */
      cancelled_submissions: number;
    };
    KeyUsage: {
      key_id: string;
      name: string;
      project_id: string;
      account_id: string;
      tier: string;
      /** @description The key's plan ("default" when none was named) */
      plan: string;
      /** @description Identifies the key's value without revealing it */
      fingerprint: string;
      /** Format: date-time */
      created_at: string;
      requests_last_minute: number;
      rate_limit_per_min: number;
      in_flight: number;
      max_in_flight: number;
      /** @description Of the submissions in flight, live sessions (docs/live-sessions.md) */
      live_sessions: number;
      /** @description rejected_rate_limit + rejected_concurrency */
      rejected_429: number;
      rejected_rate_limit: number;
      rejected_concurrency: number;
      totals: {
        requests: number;
        submissions: number;
        completed: number;
        errors: number;
        rejected_queue_full: number;
        rejected_language: number;
      };
      /** @description Every counter of the key, by name */
      counters: {
        [key: string]: number;
      };
    };
    KeyUsageDetail: {
      key_id: string;
      name: string;
      project_id: string;
      account_id: string;
      tier: string;
      /** @description The key's plan ("default" when none was named) */
      plan: string;
      /** @description Identifies the key's value without revealing it */
      fingerprint: string;
      /** Format: date-time */
      created_at: string;
      requests_last_minute: number;
      rate_limit_per_min: number;
      in_flight: number;
      max_in_flight: number;
      /** @description Of the submissions in flight, live sessions (docs/live-sessions.md) */
      live_sessions: number;
      /** @description rejected_rate_limit + rejected_concurrency */
      rejected_429: number;
      rejected_rate_limit: number;
      rejected_concurrency: number;
      totals: {
        requests: number;
        submissions: number;
        completed: number;
        errors: number;
        rejected_queue_full: number;
        rejected_language: number;
      };
      /** @description Every counter of the key, by name */
      counters: {
        [key: string]: number;
      };
      revoked: boolean;
    };
    CancelledSubmission: {
      /** Format: uuid */
      id: string;
      /** @constant */
      cancelled: true;
    };
    SubmissionEnded: {
      /** @constant */
      error: "the submission has already ended";
      /** Format: uuid */
      id: string;
      job_status: components["schemas"]["JobStatus"];
    };
    Deleted: {
      /** @constant */
      deleted: true;
      id: string;
    };
    OperatorThrottled: {
      /** @constant */
      error: "too many failed attempts";
      message: string;
      retry_after_secs: number;
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
    Node: {
      id: string;
      name: string;
      url: string;
      pool: string;
      node_id: string | null;
      version: string | null;
      reachable: boolean;
      ready: boolean;
      draining: boolean;
      enforcement_mode: string;
      /** @description Run slots the edge fills: the reported ones, at most max_slots */
      slots: number;
      in_flight: number;
      free_slots: number;
      /** @description Runs dispatched beyond its run slots, waiting in its own queue */
      waiting: number;
      languages: {
          name: string;
          version: string;
        }[];
      not_ready_reasons: string[];
      last_ok_at: string | null;
      last_error: string | null;
      /** Format: date-time */
      registered_at: string;
      /** @description registered (by an operator, health by NodeInfo polls) or enrolled (heartbeats) */
      kind: string;
      /** @description revoked, pending, healthy, unhealthy, draining, drained or not_ready */
      state: string;
      last_heartbeat_at: string | null;
      reported_slots: number;
      /** @description The enrollment token's cap; null: none */
      max_slots: number | null;
      /** @description "pending": waits for an operator's approval */
      approval: string | null;
      revoked_at: string | null;
    };
    DrainResult: {
      node: components["schemas"]["Node"];
      in_flight_at_drain: number | null;
      rpc_error: string | null;
    };
    EnrollmentToken: {
      id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      expires_at: string | null;
      uses: number;
      last_used_at: string | null;
      /** @description Node addresses it may enroll; null: no limit (a token made before tokens had one) */
      max_uses: number | null;
      max_slots: number;
      require_approval: boolean;
    };
    CreatedEnrollmentToken: {
      id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      expires_at: string | null;
      uses: number;
      last_used_at: string | null;
      /** @description Node addresses it may enroll; null: no limit (a token made before tokens had one) */
      max_uses: number | null;
      max_slots: number;
      require_approval: boolean;
      /** @description The plain token: shown here only */
      token: string;
    };
    FleetStatus: {
      ready_nodes: number;
      workers: number;
      queue_depth: number;
      enforcement_mode: string;
      languages: string[];
      runtimes: components["schemas"]["Runtime"][];
      reasons: string[];
      pools: {
          pool: string;
          nodes: number;
          ready_nodes: number;
          workers: number;
          queue_depth: number;
        }[];
    };
    WebhookEndpoint: {
      id: string;
      project_id: string;
      url: string;
      active: boolean;
      description: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The secrets that sign deliveries (never their values) */
      secrets: ({
          /** Format: date-time */
          created_at: string;
          expires_at: string | null;
        })[];
    };
    CreatedWebhookEndpoint: {
      id: string;
      project_id: string;
      url: string;
      active: boolean;
      description: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The secrets that sign deliveries (never their values) */
      secrets: ({
          /** Format: date-time */
          created_at: string;
          expires_at: string | null;
        })[];
      /** @description The signing secret: shown here only */
      secret: string;
    };
    RotatedWebhookEndpoint: {
      id: string;
      project_id: string;
      url: string;
      active: boolean;
      description: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The secrets that sign deliveries (never their values) */
      secrets: ({
          /** Format: date-time */
          created_at: string;
          expires_at: string | null;
        })[];
      /** @description The new signing secret: shown here only */
      secret: string;
      /** @description Until when the previous secrets still sign; null: they stopped at once */
      previous_secrets_expire_at: string | null;
    };
    WebhookTest: {
      endpoint_id: string;
      webhook_id: string;
      delivered: boolean;
      status: number | null;
      latency_ms: number;
      error: string | null;
    };
    DeliveryLog: {
      submission_id: string;
      project_id: string;
      /** Format: date-time */
      created_at: string;
      endpoints: ({
          endpoint_id: string;
          /** @enum {string} */
          state: "pending" | "delivered" | "failed";
          attempts: number;
          next_attempt_at: string | null;
          log: ({
              endpoint_id: string;
              attempt: number;
              /** Format: date-time */
              started_at: string;
              status: number | null;
              latency_ms: number;
              /** @enum {string} */
              outcome: "delivered" | "retry" | "failed" | "interrupted";
              error: string | null;
            })[];
        })[];
    };
    Projects: components["schemas"]["Project"][];
    ApiKeys: components["schemas"]["ApiKey"][];
    KeyUsages: components["schemas"]["KeyUsage"][];
    Plans: components["schemas"]["Plan"][];
    Nodes: components["schemas"]["Node"][];
    EnrollmentTokens: components["schemas"]["EnrollmentToken"][];
    WebhookEndpoints: components["schemas"]["WebhookEndpoint"][];
  };
  responses: never;
  parameters: {
    /** @description The submission's id */
    SubmissionId: string;
    /** @description The project's id (prj_…) */
    ProjectId: string;
    /** @description The key's id (key_…) */
    KeyId: string;
    /** @description The node's id or name */
    NodeId: string;
    /** @description The enrollment token's id */
    EnrollmentTokenId: string;
    /** @description The plan's name: 1-63 characters of a-z, 0-9, '_' and '-' */
    PlanName: string;
    /** @description The webhook endpoint's id (whk_…) */
    WebhookId: string;
    /** @description The submission whose deliveries are asked for */
    DeliverySubmissionId: string;
    /** @description Only this project's keys */
    ProjectFilter?: string;
  };
  requestBodies: never;
  headers: {
    /** @description Seconds to wait before retrying */
    RetryAfter: number;
  };
  pathItems: never;
}

export type $defs = Record<string, never>;

export type external = Record<string, never>;

export interface operations {

  /** List projects */
  adminListProjects: {
    responses: {
      /** @description Every project */
      200: {
        content: {
          "application/json": components["schemas"]["Projects"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Create a project */
  adminCreateProject: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateProjectRequest"];
      };
    };
    responses: {
      /** @description The project */
      201: {
        content: {
          "application/json": components["schemas"]["Project"];
        };
      };
      /** @description Invalid body: not a JSON object, or a field refused (the message names it) */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 64 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Show a project */
  adminShowProject: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
      };
    };
    responses: {
      /** @description The project */
      200: {
        content: {
          "application/json": components["schemas"]["Project"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List a project's keys */
  adminListProjectKeys: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
      };
    };
    responses: {
      /** @description The project's keys (never their values) */
      200: {
        content: {
          "application/json": components["schemas"]["ApiKeys"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create an API key in a project
   * @description The plain key is in this answer only. Importing a value that is already a key of this project answers 200 with it.
   */
  adminCreateKey: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateKeyRequest"];
      };
    };
    responses: {
      /** @description The imported value was already this project's key */
      200: {
        content: {
          "application/json": components["schemas"]["CreatedKey"];
        };
      };
      /** @description The key, with its value (shown once) */
      201: {
        content: {
          "application/json": components["schemas"]["CreatedKey"];
        };
      };
      /** @description Invalid body, an unknown plan, or an imported key of the wrong form */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The imported value is a key of another project */
      409: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 64 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List API keys */
  adminListKeys: {
    parameters: {
      query?: {
        project?: components["parameters"]["ProjectFilter"];
      };
    };
    responses: {
      /** @description The keys (never their values) */
      200: {
        content: {
          "application/json": components["schemas"]["ApiKeys"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project (?project=) */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Show a key */
  adminShowKey: {
    parameters: {
      path: {
        id: components["parameters"]["KeyId"];
      };
    };
    responses: {
      /** @description The key (never its value) */
      200: {
        content: {
          "application/json": components["schemas"]["ApiKey"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such key */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Revoke a key
   * @description Requests with the key are refused from this moment; its submissions in flight end `error` and their runs are cancelled at their nodes.
   */
  adminDeleteKey: {
    parameters: {
      path: {
        id: components["parameters"]["KeyId"];
      };
    };
    responses: {
      /** @description Revoked */
      200: {
        content: {
          "application/json": components["schemas"]["DeletedKey"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such key */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Revoke a key
   * @description Requests with the key are refused from this moment; its submissions in flight end `error` and their runs are cancelled at their nodes.
   */
  adminRevokeKey: {
    parameters: {
      path: {
        id: components["parameters"]["KeyId"];
      };
    };
    responses: {
      /** @description Revoked */
      200: {
        content: {
          "application/json": components["schemas"]["DeletedKey"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such key */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Give a key a new value
   * @description Same key id, project, name and plan; the old value is refused at once and usage counters start afresh.
   */
  adminRotateKey: {
    parameters: {
      path: {
        id: components["parameters"]["KeyId"];
      };
    };
    responses: {
      /** @description The key with its new value (shown once) */
      200: {
        content: {
          "application/json": components["schemas"]["RotatedKey"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such key */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** A key's usage */
  adminKeyUsage: {
    parameters: {
      path: {
        id: components["parameters"]["KeyId"];
      };
    };
    responses: {
      /** @description The key's usage against its plan */
      200: {
        content: {
          "application/json": components["schemas"]["KeyUsageDetail"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such key */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Every key's usage */
  adminUsage: {
    parameters: {
      query?: {
        project?: components["parameters"]["ProjectFilter"];
      };
    };
    responses: {
      /** @description One entry per key */
      200: {
        content: {
          "application/json": components["schemas"]["KeyUsages"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project (?project=) */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Cancel a submission in flight
   * @description It ends `error` with the reason, and its run is stopped at its node. The body may be left out.
   */
  adminCancelSubmission: {
    parameters: {
      path: {
        id: components["parameters"]["SubmissionId"];
      };
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["CancelSubmissionRequest"];
      };
    };
    responses: {
      /** @description Cancelled */
      200: {
        content: {
          "application/json": components["schemas"]["CancelledSubmission"];
        };
      };
      /** @description The id is not a UUID, or the body is invalid */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such submission */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The submission had already ended */
      409: {
        content: {
          "application/json": components["schemas"]["SubmissionEnded"];
        };
      };
      /** @description Body larger than 64 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List plans */
  adminListPlans: {
    responses: {
      /** @description Every plan, the default one always, by name */
      200: {
        content: {
          "application/json": components["schemas"]["Plans"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Show a plan */
  adminShowPlan: {
    parameters: {
      path: {
        name: components["parameters"]["PlanName"];
      };
    };
    responses: {
      /** @description The plan */
      200: {
        content: {
          "application/json": components["schemas"]["Plan"];
        };
      };
      /** @description Invalid plan name */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such plan */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create or change a plan
   * @description Fields not given keep their value; a new plan starts from the default plan's.
   */
  adminSetPlan: {
    parameters: {
      path: {
        name: components["parameters"]["PlanName"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["PlanUpdateRequest"];
      };
    };
    responses: {
      /** @description The changed plan */
      200: {
        content: {
          "application/json": components["schemas"]["Plan"];
        };
      };
      /** @description The new plan */
      201: {
        content: {
          "application/json": components["schemas"]["Plan"];
        };
      };
      /** @description Invalid plan name or body (a cap above the node's maximum names the field) */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 16 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List nodes */
  adminListNodes: {
    responses: {
      /** @description Every node with its health, slots and languages */
      200: {
        content: {
          "application/json": components["schemas"]["Nodes"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Register a node by its URL
   * @description The edge calls the node's NodeInfo before it answers.
   */
  adminRegisterNode: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["RegisterNodeRequest"];
      };
    };
    responses: {
      /** @description The node */
      201: {
        content: {
          "application/json": components["schemas"]["Node"];
        };
      };
      /** @description Invalid body, or a node URL that is not https (http only on loopback) */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 64 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The node did not answer NodeInfo */
      502: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Drain a node
   * @description It takes no new work at once; its running and queued runs finish.
   */
  adminDrainNode: {
    parameters: {
      path: {
        id: components["parameters"]["NodeId"];
      };
    };
    responses: {
      /** @description The node */
      200: {
        content: {
          "application/json": components["schemas"]["DrainResult"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such node */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Approve a pending node
   * @description A node enrolled with a require_approval token joins rotation.
   */
  adminApproveNode: {
    parameters: {
      path: {
        id: components["parameters"]["NodeId"];
      };
    };
    responses: {
      /** @description The node */
      200: {
        content: {
          "application/json": components["schemas"]["Node"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such node */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Revoke a node's credential
   * @description It leaves rotation at once, its runs go to other nodes; it must enroll again with a new token.
   */
  adminRevokeNode: {
    parameters: {
      path: {
        id: components["parameters"]["NodeId"];
      };
    };
    responses: {
      /** @description The node */
      200: {
        content: {
          "application/json": components["schemas"]["Node"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such node */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Forget a node */
  adminRemoveNode: {
    parameters: {
      path: {
        id: components["parameters"]["NodeId"];
      };
    };
    responses: {
      /** @description Removed */
      200: {
        content: {
          "application/json": components["schemas"]["Deleted"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such node */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List enrollment tokens */
  adminListEnrollmentTokens: {
    responses: {
      /** @description Every token (never its value) */
      200: {
        content: {
          "application/json": components["schemas"]["EnrollmentTokens"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create an enrollment token
   * @description What a new node presents to join the fleet (POST /fleet/enroll). The plain token is in this answer only.
   */
  adminCreateEnrollmentToken: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EnrollmentTokenRequest"];
      };
    };
    responses: {
      /** @description The token, with its value (shown once) */
      201: {
        content: {
          "application/json": components["schemas"]["CreatedEnrollmentToken"];
        };
      };
      /** @description Invalid body: not a JSON object, or a field refused (the message names it) */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 64 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Revoke an enrollment token */
  adminRevokeEnrollmentToken: {
    parameters: {
      path: {
        id: components["parameters"]["EnrollmentTokenId"];
      };
    };
    responses: {
      /** @description Revoked */
      200: {
        content: {
          "application/json": components["schemas"]["Deleted"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such enrollment token */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** The fleet's status */
  adminFleet: {
    responses: {
      /** @description Ready nodes, run slots, queue, runtimes; the same per pool */
      200: {
        content: {
          "application/json": components["schemas"]["FleetStatus"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * The edge's request metrics (Prometheus)
   * @description Requests, latency and 429/503 answers per route (HEAD answers the headers only).
   */
  adminMetrics: {
    responses: {
      /** @description Prometheus text */
      200: {
        content: {
          "text/plain": string;
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The metrics store did not answer (with Retry-After), or the admin API is disabled (OPERATOR_TOKEN missing or too weak) */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** List a project's webhook endpoints */
  adminListWebhooks: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
      };
    };
    responses: {
      /** @description The endpoints (never their secrets) */
      200: {
        content: {
          "application/json": components["schemas"]["WebhookEndpoints"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Add a webhook endpoint to a project
   * @description The signing secret is in this answer only.
   */
  adminCreateWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateWebhookRequest"];
      };
    };
    responses: {
      /** @description The endpoint, with its signing secret (shown once) */
      201: {
        content: {
          "application/json": components["schemas"]["CreatedWebhookEndpoint"];
        };
      };
      /** @description Invalid body, or a URL the webhook rules refuse (https, public address; docs/webhooks.md), or an invalid secret */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The project has its most endpoints already (20) */
      409: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 16 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The edge's webhook configuration is invalid (WEBHOOK_* vars) */
      500: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A submission's delivery log
   * @description Every attempt per endpoint: time, status, latency, outcome, error.
   */
  adminWebhookDeliveries: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        sub: components["parameters"]["DeliverySubmissionId"];
      };
    };
    responses: {
      /** @description The log */
      200: {
        content: {
          "application/json": components["schemas"]["DeliveryLog"];
        };
      };
      /** @description The submission id is not a UUID */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or endpoint, or no deliveries for this submission (none was due, it has not ended, or its log expired) */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Show a webhook endpoint */
  adminShowWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
      };
    };
    responses: {
      /** @description The endpoint (never its secrets) */
      200: {
        content: {
          "application/json": components["schemas"]["WebhookEndpoint"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or webhook endpoint */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /** Remove a webhook endpoint */
  adminRemoveWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
      };
    };
    responses: {
      /** @description Removed */
      200: {
        content: {
          "application/json": components["schemas"]["Deleted"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or webhook endpoint */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Change a webhook endpoint
   * @description active: false pauses deliveries, true resumes them.
   */
  adminUpdateWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
      };
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["UpdateWebhookRequest"];
      };
    };
    responses: {
      /** @description The endpoint */
      200: {
        content: {
          "application/json": components["schemas"]["WebhookEndpoint"];
        };
      };
      /** @description Invalid body, or a URL the webhook rules refuse (https, public address; docs/webhooks.md) */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or webhook endpoint */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 16 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The edge's webhook configuration is invalid (WEBHOOK_* vars) */
      500: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Give an endpoint a new signing secret
   * @description The previous secrets keep signing until the grace period ends (deliveries carry every signature meanwhile).
   */
  adminRotateWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
      };
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["RotateWebhookRequest"];
      };
    };
    responses: {
      /** @description The endpoint, with its new secret (shown once) */
      200: {
        content: {
          "application/json": components["schemas"]["RotatedWebhookEndpoint"];
        };
      };
      /** @description Invalid body or secret */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or webhook endpoint */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body larger than 16 KiB */
      413: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Body is not UTF-8 JSON (content-type: application/json) */
      415: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Send one signed test delivery
   * @description Answered with the receiver's status; a failed delivery is still a 200 (delivered: false).
   */
  adminTestWebhook: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
      };
    };
    responses: {
      /** @description The outcome */
      200: {
        content: {
          "application/json": components["schemas"]["WebhookTest"];
        };
      };
      /** @description The endpoint's URL is refused by the webhook rules now */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or webhook endpoint */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The edge's webhook configuration is invalid (WEBHOOK_* vars) */
      500: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A submission's delivery log
   * @description Every attempt per endpoint: time, status, latency, outcome, error.
   */
  adminWebhookEndpointDeliveries: {
    parameters: {
      path: {
        id: components["parameters"]["ProjectId"];
        wid: components["parameters"]["WebhookId"];
        sub: components["parameters"]["DeliverySubmissionId"];
      };
    };
    responses: {
      /** @description The log */
      200: {
        content: {
          "application/json": components["schemas"]["DeliveryLog"];
        };
      };
      /** @description The submission id is not a UUID */
      400: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Missing or invalid operator token */
      401: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No such project or endpoint, or no deliveries for this submission (none was due, it has not ended, or its log expired) */
      404: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many wrong operator tokens; retry after Retry-After seconds */
      429: {
        headers: {
          "Retry-After": components["headers"]["RetryAfter"];
        };
        content: {
          "application/json": components["schemas"]["OperatorThrottled"];
        };
      };
      /** @description The admin API is disabled: OPERATOR_TOKEN is not configured or too weak */
      503: {
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
}
