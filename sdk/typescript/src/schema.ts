/**
 * Types of the Engram HTTP API, generated from /v1/openapi.json by openapi-typescript.
 * Do not edit: run `npm run generate` (a test fails when this file and the API differ).
 */

export interface paths {
    "/v1/admin/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["revoke_key_v1_admin_keys__key_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenants */
        get: operations["list_tenants_v1_admin_tenants_get"];
        put?: never;
        /** Create a tenant */
        post: operations["create_tenant_v1_admin_tenants_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's counts, usage and keys */
        get: operations["get_tenant_v1_admin_tenants__tenant__get"];
        put?: never;
        post?: never;
        /** Erase a tenant and all it holds */
        delete: operations["erase_tenant_v1_admin_tenants__tenant__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an API key */
        post: operations["create_key_v1_admin_tenants__tenant__keys_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a tenant's settings */
        put: operations["configure_tenant_v1_admin_tenants__tenant__settings_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's usage per day */
        get: operations["tenant_usage_v1_admin_tenants__tenant__usage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the webhooks */
        get: operations["list_all_v1_admin_tenants__tenant__webhooks_get"];
        put?: never;
        /** Subscribe a URL to events */
        post: operations["create_v1_admin_tenants__tenant__webhooks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a webhook */
        delete: operations["delete_v1_admin_tenants__tenant__webhooks__webhook_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's delivery log */
        get: operations["deliveries_v1_admin_tenants__tenant__webhooks__webhook_id__deliveries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export every memory as JSONL */
        post: operations["export_v1_export_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forget by ids, by query or by filter */
        post: operations["forget_v1_forget_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness (no key needed) */
        get: operations["health_v1_health_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import an export's JSONL */
        post: operations["import__v1_import_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/import/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Where to upload a large import (cloud) */
        post: operations["import_upload_v1_import_upload_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An asynchronous retain's or import's status */
        get: operations["get_job_v1_jobs__id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List memories, a page at a time */
        get: operations["list_memories_v1_memories_get"];
        put?: never;
        /** Retain texts, messages or a batch of items */
        post: operations["retain_v1_memories_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one memory (and its history) */
        get: operations["get_memory_v1_memories__id__get"];
        put?: never;
        post?: never;
        /** Delete one memory */
        delete: operations["delete_memory_v1_memories__id__delete"];
        options?: never;
        head?: never;
        /** Change a memory's content, tags or pin */
        patch: operations["patch_memory_v1_memories__id__patch"];
        trace?: never;
    };
    "/v1/memories/{id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Say whether a memory helped */
        post: operations["feedback_v1_memories__id__feedback_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Release a quarantined memory */
        post: operations["release_memory_v1_memories__id__release_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bring an archived memory back */
        post: operations["restore_memory_v1_memories__id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Recall the memories that matter for a query */
        post: operations["recall_v1_recall_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Counts, storage, usage and the last lifecycle run */
        get: operations["stats_v1_stats_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "job.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.failed (envelope version 1)
         * @description An asynchronous retain failed (``data.error``).
         */
        post: operations["event_job_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.succeeded (envelope version 1)
         * @description An asynchronous retain finished (its results: ids and actions).
         */
        post: operations["event_job_succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.archived": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.archived (envelope version 1)
         * @description The lifecycle job (or a PATCH) archived the memory.
         */
        post: operations["event_memory_archived"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.created (envelope version 1)
         * @description A memory was written for the first time (``data.supersedes``: the one it replaced).
         */
        post: operations["event_memory_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.deleted (envelope version 1)
         * @description A forget deleted the memory: its id and the receipt, never its content.
         */
        post: operations["event_memory_deleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.expired (envelope version 1)
         * @description The lifecycle job deleted the memory because its expires_at had passed.
         */
        post: operations["event_memory_expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.merged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.merged (envelope version 1)
         * @description A retain merged new text into an existing memory.
         */
        post: operations["event_memory_merged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.restored": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.restored (envelope version 1)
         * @description An archived memory came back to a live tier.
         */
        post: operations["event_memory_restored"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.superseded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.superseded (envelope version 1)
         * @description A newer memory replaced this one (``data.superseded_by``).
         */
        post: operations["event_memory_superseded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "memory.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * memory.updated (envelope version 1)
         * @description Content, tags, metadata, pin, expiry or status changed (``data.changed``).
         */
        post: operations["event_memory_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * ConfigureTenant
         * @description The body is ``{"settings": {...}}``: the overrides go inside ``settings``.
         * @example {
         *       "settings": {
         *         "recall": {
         *           "fusion": "rrf",
         *           "min_score": 0.3
         *         }
         *       }
         *     }
         */
        ConfigureTenant: {
            /** @description overrides of the "recall", "lifecycle", "retain", "limits" and "events" settings ("events": {"publish": true} puts the tenant's changes on the cloud's EventBridge bus); {} restores the defaults */
            settings: components["schemas"]["TenantOverrides"];
        };
        /** CreateKey */
        CreateKey: {
            /** Expires In Days */
            expires_in_days?: number | null;
            /**
             * Read Only
             * @default false
             */
            read_only?: boolean;
            /** Scopes */
            scopes?: string[];
        };
        /** CreateTenant */
        CreateTenant: {
            /** Name */
            name?: string | null;
            /**
             * Tenant Id
             * @example acme
             */
            tenant_id: string;
        };
        /** CreateWebhook */
        CreateWebhook: {
            /** Events */
            events?: ("memory.created" | "memory.merged" | "memory.superseded" | "memory.updated" | "memory.deleted" | "memory.archived" | "memory.restored" | "memory.expired" | "job.succeeded" | "job.failed")[];
            /**
             * Url
             * @example https://example.com/engram-events
             */
            url: string;
        };
        /** DeletionEvent */
        DeletionEvent: {
            data: components["schemas"]["DeletionEventData"];
            /** Id */
            id: string;
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /** Subject */
            subject: string;
            /** Tenant Id */
            tenant_id: string;
            /**
             * Type
             * @enum {string}
             */
            type: "memory.deleted" | "memory.expired";
            /**
             * Version
             * @default 1
             * @constant
             */
            version?: 1;
        };
        /**
         * DeletionEventData
         * @description A deleted memory: its id and the deletion receipt, never its content.
         */
        DeletionEventData: {
            /**
             * Deleted At
             * Format: date-time
             */
            deleted_at: string;
            /** Memory Id */
            memory_id: string;
            /** Reason */
            reason: string;
            /** Receipt Id */
            receipt_id: string;
        };
        /** Delivery */
        Delivery: {
            /** Attempts */
            attempts: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Event Id */
            event_id: string;
            /** Event Type */
            event_type: string;
            /** Finished At */
            finished_at: string | null;
            /** Id */
            id: string;
            /** Last Error */
            last_error: string | null;
            /** Last Status Code */
            last_status_code: number | null;
            /** Log */
            log: components["schemas"]["DeliveryAttempt"][];
            /** Status */
            status: string;
            /** Subject */
            subject: string;
        };
        /** DeliveryAttempt */
        DeliveryAttempt: {
            /**
             * At
             * Format: date-time
             */
            at: string;
            /** Attempt */
            attempt: number;
            /** Duration Ms */
            duration_ms: number;
            /** Error */
            error: string | null;
            /** Status Code */
            status_code: number | null;
        };
        /** DeliveryList */
        DeliveryList: {
            /** Deliveries */
            deliveries: components["schemas"]["Delivery"][];
        };
        /**
         * ErrorBody
         * @description Every error: ``{"error": {"code", "message", "details"?}}``.
         */
        ErrorBody: {
            error: components["schemas"]["ErrorDetail"];
        };
        /** ErrorDetail */
        ErrorDetail: {
            /** Code */
            code: string;
            /** Details */
            details?: {
                [key: string]: unknown;
            }[] | null;
            /** Message */
            message: string;
        };
        /** EventsOverrides */
        EventsOverrides: {
            /** Publish */
            publish?: boolean | null;
        };
        /**
         * ExportLink
         * @description An export written to object storage (the cloud): the JSONL is fetched from ``url``.
         */
        ExportLink: {
            /** Bytes */
            bytes: number;
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /** Memories */
            memories: number;
            /** Url */
            url: string;
        };
        /** FeedbackRequest */
        FeedbackRequest: {
            /**
             * Signal
             * @enum {string}
             */
            signal: "used" | "ignored" | "corrected" | "positive" | "negative";
        };
        /** FeedbackResponse */
        FeedbackResponse: {
            /** Feedback Weight */
            feedback_weight: number;
            /** Id */
            id: string;
        };
        /**
         * ForgetFilter
         * @description What a forget by filter deletes: at least one condition, none of them null or empty, so a
         *     filter can never mean "everything" by accident.
         */
        ForgetFilter: {
            /** Category */
            category?: ("profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw") | ("profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw")[];
            /**
             * Older Than
             * Format: date-time
             */
            older_than?: string;
            /**
             * Scope
             * @example user:alice
             */
            scope?: string;
            /** Session Id */
            session_id?: string;
            /** Tags Any */
            tags_any?: string[];
            /** Tier */
            tier?: ("peripheral" | "working" | "core" | "archived") | ("peripheral" | "working" | "core" | "archived")[];
        };
        /**
         * ForgetRequest
         * @description ``POST /v1/forget``: exactly one of ``ids``, ``query`` or ``filter``.
         */
        ForgetRequest: {
            /**
             * Dry Run
             * @default false
             */
            dry_run?: boolean;
            filter?: components["schemas"]["ForgetFilter"];
            /** Ids */
            ids?: string[];
            /**
             * Limit
             * @default 100
             */
            limit?: number;
            /**
             * Query
             * @example what theme do I like?
             */
            query?: string;
            /** Scopes */
            scopes?: string[] | null;
            /**
             * Threshold
             * @default 0.6
             */
            threshold?: number;
        } & (unknown | unknown | unknown);
        /**
         * ForgetResponse
         * @description ``deleted``: what went (always empty on a dry run); ``would_delete``: what a dry run
         *     selected (empty otherwise).
         */
        ForgetResponse: {
            /** Candidates */
            candidates?: {
                [key: string]: unknown;
            }[] | null;
            /** Deleted */
            deleted: string[];
            /** Dry Run */
            dry_run: boolean;
            /** Receipt Id */
            receipt_id: string | null;
            /** Would Delete */
            would_delete?: string[];
        };
        /** HealthResponse */
        HealthResponse: {
            /**
             * Status
             * @constant
             */
            status: "ok";
            /** Version */
            version: string;
        };
        /**
         * HistoryEntry
         * @description One change of a memory: what it became and why.
         */
        HistoryEntry: {
            /**
             * At
             * Format: date-time
             */
            at: string;
            /** Content */
            content: string;
            /** Detail */
            detail?: {
                [key: string]: unknown;
            };
            /**
             * Event
             * @enum {string}
             */
            event: "created" | "merged" | "updated" | "superseded" | "feedback" | "tier" | "released";
            /** Memory Id */
            memory_id: string;
            /** Version */
            version: number;
        };
        /** HTTPValidationError */
        HTTPValidationError: {
            /** Detail */
            detail?: components["schemas"]["ValidationError"][];
        };
        /**
         * ImportProgress
         * @description How far an import job is: of ``total`` memories in the file, ``done`` were written
         *     (``imported``) or found already there (``skipped``, with the file's own repeats).
         */
        ImportProgress: {
            /**
             * Done
             * @default 0
             */
            done?: number;
            /**
             * Imported
             * @default 0
             */
            imported?: number;
            /**
             * Skipped
             * @default 0
             */
            skipped?: number;
            /**
             * Total
             * @default 0
             */
            total?: number;
        };
        /**
         * ImportReport
         * @description An import of another service's export (``?from=mem0|jsonl|memory-lancedb-pro``): every
         *     record of the file is imported (counted by scope) or skipped with why; a dry run writes
         *     nothing and says the same of what an import would do.
         */
        ImportReport: {
            /** By Scope */
            by_scope: {
                [key: string]: number;
            };
            /** Dry Run */
            dry_run: boolean;
            /**
             * Format
             * @enum {string}
             */
            format: "mem0" | "jsonl" | "memory-lancedb-pro";
            /** Imported */
            imported: number;
            /** Mapping */
            mapping?: {
                [key: string]: {
                    [key: string]: number;
                };
            } | null;
            /** Read */
            read: number;
            /** Skipped */
            skipped: number;
            /** Skipped Reasons */
            skipped_reasons: {
                [key: string]: unknown;
            }[];
        };
        /**
         * ImportResponse
         * @description An import written within its call (a larger one answers ``JobAccepted``, 202).
         */
        ImportResponse: {
            /** Imported */
            imported: number;
            /** Skipped */
            skipped: number;
        };
        /**
         * ImportUpload
         * @description Where to put a large import (the cloud): ``PUT`` the JSONL to ``upload_url`` before
         *     ``expires_at``, then ``POST /v1/import?upload=<job_id>`` starts the job.
         */
        ImportUpload: {
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /** Job Id */
            job_id: string;
            /** Max Bytes */
            max_bytes: number;
            /**
             * Method
             * @default PUT
             * @constant
             */
            method?: "PUT";
            /** Upload Url */
            upload_url: string;
        };
        /**
         * Job
         * @description An asynchronous retain or import: ``queued`` -> ``running`` -> ``succeeded`` | ``failed``.
         */
        Job: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Error */
            error?: string | null;
            /** Extraction */
            extraction?: ("llm" | "rules") | null;
            /** Fallback */
            fallback?: string | null;
            /** Job Id */
            job_id: string;
            /**
             * Kind
             * @default retain
             * @enum {string}
             */
            kind?: "retain" | "import";
            progress?: components["schemas"]["ImportProgress"] | null;
            /** Results */
            results?: components["schemas"]["RetainResult"][] | null;
            /** Scope */
            scope?: string | null;
            /** Scopes */
            scopes?: string[] | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /** JobAccepted */
        JobAccepted: {
            /** Job Id */
            job_id: string;
            /**
             * Status
             * @default queued
             * @constant
             */
            status?: "queued";
        };
        /** JobEvent */
        JobEvent: {
            data: components["schemas"]["JobEventData"];
            /** Id */
            id: string;
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /** Subject */
            subject: string;
            /** Tenant Id */
            tenant_id: string;
            /**
             * Type
             * @enum {string}
             */
            type: "job.succeeded" | "job.failed";
            /**
             * Version
             * @default 1
             * @constant
             */
            version?: 1;
        };
        /**
         * JobEventData
         * @description A finished asynchronous retain: its results (ids and actions; the memories have their own events).
         */
        JobEventData: {
            /**
             * Error
             * @default null
             */
            error?: string | null;
            /**
             * Fallback
             * @default null
             */
            fallback?: string | null;
            /** Job Id */
            job_id: string;
            /** Results */
            results?: components["schemas"]["JobResult"][];
            /**
             * Scope
             * @default null
             */
            scope?: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "succeeded" | "failed";
        };
        /** JobResult */
        JobResult: {
            /** Action */
            action: string;
            /** Id */
            id: string;
            /**
             * Reason
             * @default null
             */
            reason?: string | null;
        };
        /** KeyCreated */
        KeyCreated: {
            /** Api Key */
            api_key: string;
            /** Display Prefix */
            display_prefix: string;
            /** Expires At */
            expires_at: string | null;
            /** Key Id */
            key_id: string;
            /** Read Only */
            read_only: boolean;
            /** Scopes */
            scopes: string[];
            /** Tenant Id */
            tenant_id: string;
        };
        /** KeyRevoked */
        KeyRevoked: {
            /** Key Id */
            key_id: string;
            /** Revoked */
            revoked: boolean;
        };
        /**
         * KeySummary
         * @description A key as the operator sees it later: never its secret.
         */
        KeySummary: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Display Prefix */
            display_prefix: string;
            /** Expires At */
            expires_at: string | null;
            /** Key Id */
            key_id: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Read Only */
            read_only: boolean;
            /** Revoked At */
            revoked_at: string | null;
            /** Scopes */
            scopes: string[];
        };
        /** LifecycleOverrides */
        LifecycleOverrides: {
            /** Archive Max Retention */
            archive_max_retention?: number | null;
            /** Archive Min Idle Days */
            archive_min_idle_days?: number | null;
            /** Beta Core */
            beta_core?: number | null;
            /** Beta Peripheral */
            beta_peripheral?: number | null;
            /** Beta Working */
            beta_working?: number | null;
            /** Core Min Access */
            core_min_access?: number | null;
            /** Core Min Composite */
            core_min_composite?: number | null;
            /** Core Min Importance */
            core_min_importance?: number | null;
            /** Demote Max Access */
            demote_max_access?: number | null;
            /** Demote Max Composite */
            demote_max_composite?: number | null;
            /** Demote Min Age Days */
            demote_min_age_days?: number | null;
            /** Feedback Alpha */
            feedback_alpha?: number | null;
            /** Feedback Default */
            feedback_default?: number | null;
            /** Feedback Demote Below */
            feedback_demote_below?: number | null;
            /** Floor Core */
            floor_core?: number | null;
            /** Floor Peripheral */
            floor_peripheral?: number | null;
            /** Floor Working */
            floor_working?: number | null;
            /** Frequency Scale */
            frequency_scale?: number | null;
            /** Half Life Days */
            half_life_days?: number | null;
            /** Importance Stretch */
            importance_stretch?: number | null;
            /** Job Page Size */
            job_page_size?: number | null;
            /** Multiplier Base */
            multiplier_base?: number | null;
            /** Promote Min Feedback */
            promote_min_feedback?: number | null;
            /** Top Movers */
            top_movers?: number | null;
            /** Weight Frequency */
            weight_frequency?: number | null;
            /** Weight Importance */
            weight_importance?: number | null;
            /** Weight Retention */
            weight_retention?: number | null;
            /** Working Min Access */
            working_min_access?: number | null;
            /** Working Min Composite */
            working_min_composite?: number | null;
        };
        /**
         * LifecycleReport
         * @description What one run of the lifecycle job did to one tenant (stored, and returned by the CLI and the
         *     scheduled functions). ``cursor`` is where a run that stopped early resumes.
         */
        LifecycleReport: {
            /**
             * Archived
             * @default 0
             */
            archived?: number;
            /** By Tier */
            by_tier?: {
                [key: string]: number;
            };
            /**
             * Conflicts
             * @default 0
             */
            conflicts?: number;
            /** Cursor */
            cursor?: string | null;
            /**
             * Demoted
             * @default 0
             */
            demoted?: number;
            /**
             * Dry Run
             * @default false
             */
            dry_run?: boolean;
            /**
             * Duration S
             * @default 0
             */
            duration_s?: number;
            /**
             * Expired
             * @default 0
             */
            expired?: number;
            /** Finished At */
            finished_at?: string | null;
            /**
             * Now
             * Format: date-time
             */
            now: string;
            /**
             * Pages
             * @default 0
             */
            pages?: number;
            /** Pending Expired */
            pending_expired?: string[];
            /**
             * Promoted
             * @default 0
             */
            promoted?: number;
            /**
             * Rules
             * @default all
             * @enum {string}
             */
            rules?: "all" | "decay" | "tiering";
            /** Run Id */
            run_id: string;
            /**
             * Scanned
             * @default 0
             */
            scanned?: number;
            /**
             * Started At
             * Format: date-time
             */
            started_at: string;
            /**
             * Status
             * @default running
             * @enum {string}
             */
            status?: "running" | "completed";
            /** Tenant Id */
            tenant_id: string;
            /** Top Movers */
            top_movers?: components["schemas"]["TierMove"][];
        };
        /** LimitsOverrides */
        LimitsOverrides: {
            /** Burst */
            burst?: number | null;
            /** Embedding Tokens Per Month */
            embedding_tokens_per_month?: number | null;
            /** Llm Tokens Per Month */
            llm_tokens_per_month?: number | null;
            /** Requests Per Second */
            requests_per_second?: number | null;
        };
        /** ListResponse */
        ListResponse: {
            /** Memories */
            memories: components["schemas"]["MemoryView"][];
            /** Next Cursor */
            next_cursor: string | null;
        };
        /** MemoryEvent */
        MemoryEvent: {
            data: components["schemas"]["MemoryEventData"];
            /** Id */
            id: string;
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /** Subject */
            subject: string;
            /** Tenant Id */
            tenant_id: string;
            /**
             * Type
             * @enum {string}
             */
            type: "memory.created" | "memory.merged" | "memory.superseded" | "memory.updated" | "memory.archived" | "memory.restored";
            /**
             * Version
             * @default 1
             * @constant
             */
            version?: 1;
        };
        /**
         * MemoryEventData
         * @description The memory after the change, and what the change was about.
         */
        MemoryEventData: {
            /** Changed */
            changed?: string[];
            /**
             * From Tier
             * @default null
             */
            from_tier?: string | null;
            memory: components["schemas"]["MemoryView"];
            /**
             * Superseded By
             * @default null
             */
            superseded_by?: string | null;
            /**
             * Supersedes
             * @default null
             */
            supersedes?: string | null;
            /**
             * To Tier
             * @default null
             */
            to_tier?: string | null;
        };
        /**
         * MemoryView
         * @description A memory as the API returns it.
         */
        MemoryView: {
            /** Abstract */
            abstract: string;
            /** Access Count */
            access_count: number;
            /**
             * Category
             * @enum {string}
             */
            category: "profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw";
            /** Confidence */
            confidence: number;
            /** Content */
            content: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Entities */
            entities: string[];
            /** Expires At */
            expires_at: string | null;
            /** Feedback Weight */
            feedback_weight: number;
            /**
             * History
             * @default null
             */
            history?: components["schemas"]["HistoryEntry"][] | null;
            /** Id */
            id: string;
            /** Importance */
            importance: number;
            /** Key Facts */
            key_facts: string[];
            /** Last Accessed At */
            last_accessed_at: string | null;
            /**
             * Lifecycle
             * @default null
             */
            lifecycle?: {
                [key: string]: unknown;
            } | null;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /** Occurred At */
            occurred_at: string | null;
            /** Overview */
            overview: string;
            /** Pinned */
            pinned: boolean;
            /** Scope */
            scope: string;
            source: components["schemas"]["Source"];
            /**
             * Status
             * @enum {string}
             */
            status: "active" | "superseded" | "archived" | "quarantined";
            /** Superseded By */
            superseded_by: string | null;
            /** Supersedes */
            supersedes: string | null;
            /** Tags */
            tags: string[];
            /**
             * Tier
             * @enum {string}
             */
            tier: "peripheral" | "working" | "core" | "archived";
            /**
             * Trust
             * @enum {string}
             */
            trust: "user-stated" | "assistant-inferred" | "tool" | "imported";
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Valid From */
            valid_from: string | null;
            /** Valid Until */
            valid_until: string | null;
            /** Version */
            version: number;
        };
        /** Message */
        Message: {
            /**
             * Content
             * @example I prefer dark mode
             */
            content: string;
            /** Name */
            name?: string | null;
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "system" | "tool";
        };
        /**
         * PatchRequest
         * @description ``PATCH /v1/memories/{id}``. ``tier`` moves a memory by hand (out of ``archived``: a restore);
         *     ``expires_at: null`` clears an expiry.
         */
        PatchRequest: {
            /** Content */
            content?: string | null;
            /** Expires At */
            expires_at?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: (string | number | boolean | null) | (string | number | boolean | null)[];
            } | null;
            /** Pinned */
            pinned?: boolean | null;
            /** Tags */
            tags?: string[] | null;
            /** Tier */
            tier?: ("peripheral" | "working" | "core" | "archived") | null;
        };
        /** RecalledMemory */
        RecalledMemory: {
            /**
             * Category
             * @enum {string}
             */
            category: "profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw";
            /** Content */
            content: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Id */
            id: string;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /** Occurred At */
            occurred_at: string | null;
            /** Scope */
            scope: string;
            /** Score */
            score: number;
            /** Tags */
            tags: string[];
            /**
             * Tier
             * @enum {string}
             */
            tier: "peripheral" | "working" | "core" | "archived";
            /** Trace */
            trace?: {
                [key: string]: unknown;
            } | null;
            /**
             * Trust
             * @default user-stated
             * @enum {string}
             */
            trust?: "user-stated" | "assistant-inferred" | "tool" | "imported";
        };
        /**
         * RecallFilters
         * @description Whitelisted filter keys; anything else is a 400 naming the key.
         */
        RecallFilters: {
            /** Category */
            category?: ("profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw") | ("profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw")[] | null;
            created_at?: components["schemas"]["TimeRange"] | null;
            /** Metadata */
            metadata?: {
                [key: string]: (string | number | boolean) | (string | number | boolean)[];
            } | null;
            occurred_at?: components["schemas"]["TimeRange"] | null;
            /** Session Id */
            session_id?: string | null;
            /** Tags All */
            tags_all?: string[] | null;
            /** Tags Any */
            tags_any?: string[] | null;
            /** Tier */
            tier?: ("peripheral" | "working" | "core" | "archived") | ("peripheral" | "working" | "core" | "archived")[] | null;
        };
        /** RecallOverrides */
        RecallOverrides: {
            /** Access Top */
            access_top?: number | null;
            /** Amount Weight */
            amount_weight?: number | null;
            /** Bm25 Without Speakers */
            bm25_without_speakers?: boolean | null;
            /** Brevity Anchor */
            brevity_anchor?: number | null;
            /** Brevity Floor */
            brevity_floor?: number | null;
            /** Brevity Strength */
            brevity_strength?: number | null;
            /** Candidate Pool Factor */
            candidate_pool_factor?: number | null;
            /** Candidate Pool Min */
            candidate_pool_min?: number | null;
            /** Context Max Chars */
            context_max_chars?: number | null;
            /** Context Weight */
            context_weight?: number | null;
            /** Cosine Floor */
            cosine_floor?: number | null;
            /** Cosine Scale */
            cosine_scale?: number | null;
            /** Embed Inline Max */
            embed_inline_max?: number | null;
            /** Entity Weight */
            entity_weight?: number | null;
            /** Fusion */
            fusion?: ("weighted" | "rrf" | "bm25" | "vector") | null;
            /** Length Norm Anchor */
            length_norm_anchor?: number | null;
            /** Length Norm Floor */
            length_norm_floor?: number | null;
            /** Length Norm Strength */
            length_norm_strength?: number | null;
            /** Lifecycle Weight */
            lifecycle_weight?: number | null;
            /** Match Cosine */
            match_cosine?: number | null;
            /** Match Cosine With Word */
            match_cosine_with_word?: number | null;
            /** Min Results */
            min_results?: number | null;
            /** Min Score */
            min_score?: number | null;
            /** Mmr Lambda */
            mmr_lambda?: number | null;
            /** Mmr Threshold */
            mmr_threshold?: number | null;
            /** Near Miss */
            near_miss?: number | null;
            /** Neighbour Seeds */
            neighbour_seeds?: number | null;
            /** Neighbour Span */
            neighbour_span?: number | null;
            /** Neighbour Weight */
            neighbour_weight?: number | null;
            /** Person Weight */
            person_weight?: number | null;
            /** Place Weight */
            place_weight?: number | null;
            /** Rerank */
            rerank?: boolean | null;
            /** Rerank Budget Ms */
            rerank_budget_ms?: number | null;
            /** Rerank Top */
            rerank_top?: number | null;
            /** Rerank Weight */
            rerank_weight?: number | null;
            /** Rrf K */
            rrf_k?: number | null;
            /** Speaker Weight */
            speaker_weight?: number | null;
            /** Thread Weight */
            thread_weight?: number | null;
            /** Time Weight */
            time_weight?: number | null;
            /** Vector Without Speakers */
            vector_without_speakers?: boolean | null;
            /** Weight Bm25 */
            weight_bm25?: number | null;
            /** Weight Vector */
            weight_vector?: number | null;
            /** When Weight */
            when_weight?: number | null;
        };
        /**
         * RecallRequest
         * @description ``POST /v1/recall``. ``scope`` (one) or ``scopes`` (several); neither: every scope the key may read.
         */
        RecallRequest: {
            /** As Of */
            as_of?: string | null;
            /**
             * Context
             * @default false
             */
            context?: boolean;
            /**
             * Debug
             * @default false
             */
            debug?: boolean;
            filters?: components["schemas"]["RecallFilters"] | null;
            /** Fusion */
            fusion?: ("weighted" | "rrf" | "bm25" | "vector") | null;
            /**
             * Limit
             * @default 5
             */
            limit?: number;
            /** Min Score */
            min_score?: number | null;
            /**
             * Query
             * @example what theme do I like?
             */
            query: string;
            /** Rerank */
            rerank?: boolean | null;
            /**
             * Scope
             * @description one scope to search (the same as scopes: [scope])
             * @example user:alice
             */
            scope?: string;
            /** Scopes */
            scopes?: string[] | null;
            /**
             * Track Access
             * @default true
             */
            track_access?: boolean;
        };
        /** RecallResponse */
        RecallResponse: {
            /** Context */
            context?: string | null;
            /** Memories */
            memories: components["schemas"]["RecalledMemory"][];
            rerank?: components["schemas"]["RerankTrace"] | null;
            /** Timings Ms */
            timings_ms?: {
                [key: string]: number;
            } | null;
        };
        /**
         * RerankTrace
         * @description What the rerank stage did (``debug``): ``ok``, or why the fused order was kept.
         */
        RerankTrace: {
            /** Model */
            model: string;
            /**
             * Ms
             * @default 0
             */
            ms?: number;
            /** Provider */
            provider: string;
            /** Reason */
            reason?: string | null;
            /** Reranked */
            reranked: number;
            /**
             * Status
             * @enum {string}
             */
            status: "ok" | "timeout" | "error";
        };
        /** ResponseValidationError */
        ResponseValidationError: {
            /** Detail */
            detail?: components["schemas"]["ValidationError"][];
        };
        /**
         * RestoreRequest
         * @description ``POST /v1/memories/{id}/restore``: bring an archived memory back (default tier peripheral).
         */
        RestoreRequest: {
            /**
             * Tier
             * @default peripheral
             * @enum {string}
             */
            tier?: "peripheral" | "working" | "core";
        };
        /** RetainItem */
        RetainItem: {
            /** Metadata */
            metadata?: {
                [key: string]: (string | number | boolean | null) | (string | number | boolean | null)[];
            };
            /** Occurred At */
            occurred_at?: string | null;
            /** Tags */
            tags?: string[];
            /**
             * Text
             * @example I prefer dark mode
             */
            text: string;
        };
        /** RetainOverrides */
        RetainOverrides: {
            /** Dedup Candidates */
            dedup_candidates?: number | null;
            /** Dedup Cosine */
            dedup_cosine?: number | null;
            /** Default Importance */
            default_importance?: number | null;
            /** Defer Embedding */
            defer_embedding?: boolean | null;
            /** Embed Previous */
            embed_previous?: boolean | null;
            /** Embed Previous Part */
            embed_previous_part?: ("whole" | "asked") | null;
            /** Input Char Budget */
            input_char_budget?: number | null;
            /** Max Memories Per Call */
            max_memories_per_call?: number | null;
            /** Min Chars */
            min_chars?: number | null;
            /** Prefilter Cosine */
            prefilter_cosine?: number | null;
        };
        /**
         * RetainRequest
         * @description ``POST /v1/memories``: exactly one of ``text``, ``messages`` or ``items``.
         */
        RetainRequest: {
            /**
             * Async
             * @default false
             */
            async?: boolean;
            /** Expires At */
            expires_at?: string | null;
            /** Idempotency Key */
            idempotency_key?: string | null;
            /** Items */
            items?: components["schemas"]["RetainItem"][];
            /** Messages */
            messages?: components["schemas"]["Message"][];
            /** Metadata */
            metadata?: {
                [key: string]: (string | number | boolean | null) | (string | number | boolean | null)[];
            };
            /**
             * Mode
             * @default auto
             * @enum {string}
             */
            mode?: "raw" | "smart" | "auto";
            /** Occurred At */
            occurred_at?: string | null;
            /**
             * Scope
             * @example user:alice
             */
            scope: string;
            /** Session Id */
            session_id?: string | null;
            /** Tags */
            tags?: string[];
            /**
             * Text
             * @example I prefer dark mode
             */
            text?: string;
        } & (unknown | unknown | unknown);
        /** RetainResponse */
        RetainResponse: {
            /** Embedding Truncated */
            embedding_truncated?: string[] | null;
            /** Extraction */
            extraction?: ("llm" | "rules") | null;
            /** Fallback */
            fallback?: string | null;
            /**
             * Replayed
             * @default false
             */
            replayed?: boolean;
            /** Results */
            results: components["schemas"]["RetainResult"][];
        };
        /** RetainResult */
        RetainResult: {
            /**
             * Action
             * @enum {string}
             */
            action: "created" | "merged" | "skipped" | "superseded";
            /** Id */
            id: string;
            memory?: components["schemas"]["MemoryView"] | null;
            /** Reason */
            reason?: string | null;
        };
        /** Source */
        Source: {
            /**
             * Agent
             * @default null
             */
            agent?: string | null;
            /**
             * Batch Id
             * @default null
             */
            batch_id?: string | null;
            /** Message Refs */
            message_refs?: number[];
            /**
             * Role
             * @default null
             */
            role?: string | null;
            /**
             * Session Id
             * @default null
             */
            session_id?: string | null;
        };
        /** StatsResponse */
        StatsResponse: {
            /** By Category */
            by_category: {
                [key: string]: number;
            };
            /** By Scope */
            by_scope: {
                [key: string]: number;
            };
            /** By Status */
            by_status: {
                [key: string]: number;
            };
            /** By Tier */
            by_tier: {
                [key: string]: number;
            };
            last_lifecycle_run?: components["schemas"]["LifecycleReport"] | null;
            /**
             * Pending Embedding
             * @default 0
             */
            pending_embedding?: number;
            /** Storage Bytes */
            storage_bytes: number;
            /** Tenant Id */
            tenant_id: string;
            /** Total */
            total: number;
            /** Usage */
            usage: {
                [key: string]: number;
            };
            /** Usage By Day */
            usage_by_day?: {
                [key: string]: {
                    [key: string]: number;
                };
            };
        };
        /** TenantConfigured */
        TenantConfigured: {
            /** Effective */
            effective: {
                [key: string]: {
                    [key: string]: unknown;
                };
            };
            /** Overrides */
            overrides: {
                [key: string]: {
                    [key: string]: unknown;
                };
            };
            /** Tenant Id */
            tenant_id: string;
        };
        /** TenantCreated */
        TenantCreated: {
            /** Name */
            name: string;
            /** Tenant Id */
            tenant_id: string;
        };
        /** TenantDetail */
        TenantDetail: {
            /** By Status */
            by_status: {
                [key: string]: number;
            };
            /** By Tier */
            by_tier: {
                [key: string]: number;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Erasing */
            erasing: boolean;
            /** Keys */
            keys: components["schemas"]["KeySummary"][];
            /** Name */
            name: string;
            /** Overrides */
            overrides: {
                [key: string]: unknown;
            };
            /** Storage Bytes */
            storage_bytes: number;
            /** Tenant Id */
            tenant_id: string;
            /** Total */
            total: number;
            /** Usage */
            usage: {
                [key: string]: number;
            };
        };
        /** TenantErased */
        TenantErased: {
            /** Erased Memories */
            erased_memories?: number | null;
            /**
             * Status
             * @enum {string}
             */
            status: "erased" | "erasing";
            /** Tenant Id */
            tenant_id: string;
        };
        /** TenantList */
        TenantList: {
            /** Tenants */
            tenants: components["schemas"]["TenantSummary"][];
        };
        /** TenantOverrides */
        TenantOverrides: {
            events?: components["schemas"]["EventsOverrides"] | null;
            lifecycle?: components["schemas"]["LifecycleOverrides"] | null;
            limits?: components["schemas"]["LimitsOverrides"] | null;
            recall?: components["schemas"]["RecallOverrides"] | null;
            retain?: components["schemas"]["RetainOverrides"] | null;
        };
        /** TenantSummary */
        TenantSummary: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Erasing */
            erasing: boolean;
            /** Name */
            name: string;
            /** Tenant Id */
            tenant_id: string;
        };
        /**
         * TierMove
         * @description One memory the lifecycle job moved: from and to which tier, by which rules.
         */
        TierMove: {
            /** Composite */
            composite: number;
            /**
             * From Tier
             * @enum {string}
             */
            from_tier: "peripheral" | "working" | "core" | "archived";
            /** Id */
            id: string;
            /** Reason */
            reason: string;
            /**
             * To Tier
             * @enum {string}
             */
            to_tier: "peripheral" | "working" | "core" | "archived";
        };
        /** TimeRange */
        TimeRange: {
            /** Gt */
            gt?: string | null;
            /** Gte */
            gte?: string | null;
            /** Lt */
            lt?: string | null;
            /** Lte */
            lte?: string | null;
        };
        /**
         * UsageReport
         * @description A tenant's metered usage per UTC day, with what it stores now.
         */
        UsageReport: {
            /** Days */
            days: {
                [key: string]: {
                    [key: string]: number;
                };
            };
            /** Since */
            since: string;
            /** Stored Bytes */
            stored_bytes: number;
            /** Stored Memories */
            stored_memories: number;
            /** Tenant Id */
            tenant_id: string;
            /** Totals */
            totals: {
                [key: string]: number;
            };
            /** Until */
            until: string;
        };
        /** ValidationError */
        ValidationError: {
            /** Location */
            loc: (string | number)[];
            /** Error Type */
            type: string;
        };
        /** Webhook */
        Webhook: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Events */
            events: string[];
            /** Id */
            id: string;
            /** Url */
            url: string;
        };
        /** WebhookCreated */
        WebhookCreated: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Events */
            events: string[];
            /** Id */
            id: string;
            /** Secret */
            secret: string;
            /** Url */
            url: string;
        };
        /** WebhookDeleted */
        WebhookDeleted: {
            /**
             * Deleted
             * @default true
             */
            deleted?: boolean;
            /** Id */
            id: string;
        };
        /** WebhookList */
        WebhookList: {
            /** Webhooks */
            webhooks: components["schemas"]["Webhook"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    revoke_key_v1_admin_keys__key_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the key is revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyRevoked"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_tenants_v1_admin_tenants_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every tenant */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantList"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_tenant_v1_admin_tenants_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenant"];
            };
        };
        responses: {
            /** @description the new tenant */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantCreated"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_tenant_v1_admin_tenants__tenant__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tenant: counts, usage and keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantDetail"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    erase_tenant_v1_admin_tenants__tenant__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description everything of the tenant is gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantErased"];
                };
            };
            /** @description the erasure goes on in steps; repeat the call until it answers 404 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantErased"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_key_v1_admin_tenants__tenant__keys_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateKey"];
            };
        };
        responses: {
            /** @description the key; its secret is shown only now */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyCreated"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    configure_tenant_v1_admin_tenants__tenant__settings_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfigureTenant"];
            };
        };
        responses: {
            /** @description the tenant's overrides and the settings now in effect */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantConfigured"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tenant_usage_v1_admin_tenants__tenant__usage_get: {
        parameters: {
            query?: {
                since?: string | null;
                until?: string | null;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tenant's usage per UTC day */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_all_v1_admin_tenants__tenant__webhooks_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tenant's endpoints (no secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_v1_admin_tenants__tenant__webhooks_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description the endpoint; its secret is shown only now */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_v1_admin_tenants__tenant__webhooks__webhook_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoint and its delivery log are gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeleted"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    deliveries_v1_admin_tenants__tenant__webhooks__webhook_id__deliveries_get: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the delivery log, newest first, with every attempt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    export_v1_export_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSONL: a header line, then one memory per line */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description (cloud) the JSONL is at Location, a presigned URL; the body says when it expires */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportLink"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    forget_v1_forget_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForgetRequest"];
            };
        };
        responses: {
            /** @description what was (or, with dry_run, would be) deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForgetResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    health_v1_health_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
        };
    };
    import__v1_import_post: {
        parameters: {
            query?: {
                /** @description with from=: say what would be imported, write nothing */
                dry_run?: boolean;
                /** @description another service's export: mem0, jsonl, memory-lancedb-pro */
                from?: ("mem0" | "jsonl" | "memory-lancedb-pro") | null;
                /** @description with from=jsonl: the scope of lines that name none */
                scope?: string | null;
                /** @description with from=: import the valid records */
                skip_invalid?: boolean;
                upload?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSONL as export writes it: a header line, then one memory per line; with ?from=, that service's export (mem0's get_all as JSON or JSONL, one text a line, what `openclaw memory-pro export` writes) */
        requestBody?: {
            content: {
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description counts of imported and skipped memories; with ?from=, the report of every record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResponse"] | components["schemas"]["ImportReport"];
                };
            };
            /** @description too large for one call: a job carries on (poll GET /v1/jobs/{id}); also the answer to ?upload= */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    import_upload_v1_import_upload_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description (cloud) where to PUT a large file; then POST /v1/import?upload=<job_id> */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportUpload"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_job_v1_jobs__id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description an asynchronous retain's or import's status and results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_memories_v1_memories_get: {
        parameters: {
            query?: {
                category?: ("profile" | "preference" | "entity" | "event" | "case" | "pattern" | "fact" | "raw") | null;
                cursor?: string | null;
                limit?: number;
                scope?: string | null;
                status?: ("active" | "superseded" | "archived" | "quarantined") | null;
                tag?: string | null;
                tier?: ("peripheral" | "working" | "core" | "archived") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of memories, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    retain_v1_memories_post: {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetainRequest"];
            };
        };
        responses: {
            /** @description what happened to each memory */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetainResponse"];
                };
            };
            /** @description accepted as a job (async, or smart mode): poll GET /v1/jobs/{id} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_memory_v1_memories__id__get: {
        parameters: {
            query?: {
                history?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the memory (with history on request) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryView"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_memory_v1_memories__id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deletion receipt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForgetResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    patch_memory_v1_memories__id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchRequest"];
            };
        };
        responses: {
            /** @description the changed memory */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryView"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    feedback_v1_memories__id__feedback_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackRequest"];
            };
        };
        responses: {
            /** @description the new feedback weight */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    release_memory_v1_memories__id__release_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the memory, out of quarantine after review */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryView"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    restore_memory_v1_memories__id__restore_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RestoreRequest"] | null;
            };
        };
        responses: {
            /** @description the memory, back from the archive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryView"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    recall_v1_recall_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecallRequest"];
            };
        };
        responses: {
            /** @description the best memories, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecallResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stats_v1_stats_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description counts by scope, category, tier; storage; usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsResponse"];
                };
            };
            /** @description invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description scope or permission not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not found, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown fields or unprocessable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description quota exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    event_job_failed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_job_succeeded: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_archived: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_created: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_deleted: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeletionEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_expired: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeletionEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_merged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_restored: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_superseded: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_memory_updated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryEvent"];
            };
        };
        responses: {
            /** @description received (any other answer is retried) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
