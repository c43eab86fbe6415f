// WebhookDeliveryDO's RPC surface: one object per submission with webhook targets.

/** What one attempt's answer means: delivered, retried later, or failed for good. */
export type AttemptOutcome = "delivered" | "retry" | "failed";

export interface EnqueueInput {
  submission_id: string;
  project_id: string;
  endpoint_ids: string[];
  /** The exact bytes sent: JSON of the result record. */
  body: string;
}

export interface AttemptLog {
  endpoint_id: string;
  attempt: number;
  started_at: string;
  status: number | null;
  latency_ms: number;
  outcome: AttemptOutcome | "interrupted";
  error: string | null;
}

export interface DeliveryLog {
  submission_id: string;
  project_id: string;
  created_at: string;
  endpoints: { endpoint_id: string; state: "pending" | "delivered" | "failed"; attempts: number; next_attempt_at: string | null; log: AttemptLog[] }[];
}

export interface WebhookDeliveryRpc {
  enqueue(input: EnqueueInput): Promise<{ targets: number }>;
  log(projectId: string, endpointId?: string): DeliveryLog | null;
}
