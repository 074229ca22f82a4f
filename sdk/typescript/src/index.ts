export { Engram, retryAfterMs } from "./client.js";
export type {
  EngramOptions,
  ExportLink,
  FeedbackRequest,
  FeedbackResponse,
  ForgetRequest,
  ForgetResponse,
  Health,
  ImportResponse,
  Job,
  JobAccepted,
  ListQuery,
  ListResponse,
  Memory,
  PatchRequest,
  RecallRequest,
  RecallResponse,
  RestoreRequest,
  RetainRequest,
  RetainResponse,
  StatsResponse,
} from "./client.js";
export * from "./errors.js";
export type { components, operations, paths } from "./schema.js";
