"""Tenant and API key administration: ``engram tenant`` and ``engram key``."""

from __future__ import annotations

import argparse
import json
import sys

from engram.models import (
    dump,
)
from engram_cli.common import Command, count, fresh_data_dir_note, json_arg, open_engine, out


def _warn_if_fresh(args: argparse.Namespace) -> None:
    note = fresh_data_dir_note(args) if args.action == "create" else None
    if note:
        print(note, file=sys.stderr)


def cmd_tenant(args: argparse.Namespace) -> int:
    _warn_if_fresh(args)
    deps = open_engine(args).deps  # names the pip command when the local extra is missing
    from engram.settings import TENANT_SECTIONS
    from engram.tenants import admin

    if args.action == "create":
        tenant = deps.call(admin.create_tenant, args.name, args.display_name)
        out(args, {"tenant_id": tenant.tenant_id, "name": tenant.name}, f"created tenant {tenant.tenant_id}")
    elif args.action == "configure":
        overrides = json_arg(args.settings or "{}", "--settings")
        effective = deps.call(admin.configure_tenant, args.name, overrides)
        data = {
            "tenant_id": args.name,
            "overrides": overrides,
            "effective": effective.model_dump(mode="json", include=set(TENANT_SECTIONS)),
        }
        out(args, data, f"{args.name}: overrides {json.dumps(overrides)}")
    elif args.action == "list":
        listed = [{"tenant_id": t.tenant_id, "name": t.name} for t in deps.call(admin.list_tenants)]
        out(args, {"tenants": listed}, "\n".join(t["tenant_id"] for t in listed) or "(no tenants)")
    else:
        removed = deps.call(admin.erase_tenant, args.name)
        if removed is None:  # the stack's step queue carries on
            out(args, {"tenant_id": args.name, "status": "erasing"}, f"erasing {args.name} (in steps)")
        else:
            out(
                args,
                {"tenant_id": args.name, "status": "erased", "erased_memories": removed},
                f"erased {args.name}: {count(removed, 'memory', 'memories')}",
            )
    return 0


def add_tenant(command: Command) -> None:
    p = command("tenant", cmd_tenant, "create, list or erase tenants")
    p.add_argument("action", choices=["create", "list", "erase", "configure"])
    p.add_argument("name", nargs="?")
    p.add_argument("--display-name")
    p.add_argument("--settings", help='configure: JSON overrides, e.g. \'{"recall": {"min_score": 0.3}}\'')


def cmd_key(args: argparse.Namespace) -> int:
    _warn_if_fresh(args)
    deps = open_engine(args).deps
    from engram.tenants import admin

    if args.action == "create":
        scopes = [s for group in (args.scopes or []) for s in group.split(",") if s]
        plaintext, record = deps.call(
            admin.create_key,
            args.target,
            scopes=scopes,
            read_only=args.read_only,
            expires_in_days=args.expires_in,
        )
        from engram.tenants.admin_models import KeyCreated

        data = dump(KeyCreated.of(plaintext, record))  # the HTTP answer's fields
        out(args, data, f"{plaintext}\n(key {record.key_id} for {record.tenant_id}; shown only now)")
    elif args.action == "revoke":
        deps.call(admin.revoke_key, args.target)
        out(args, {"key_id": args.target, "revoked": True}, f"revoked {args.target}")
    else:
        keys = [
            {
                "key_id": k.key_id,
                "display_prefix": k.display_prefix,
                "scopes": list(k.scopes),
                "read_only": k.read_only,
                "created_at": k.created_at.isoformat(),
                "expires_at": k.expires_at.isoformat() if k.expires_at else None,
                "revoked": k.revoked_at is not None,
                "last_used_at": k.last_used_at.isoformat() if k.last_used_at else None,
            }
            for k in deps.call(admin.list_keys, args.target)
        ]
        out(
            args,
            {"keys": keys},
            "\n".join(
                f"{k['key_id']}  {k['display_prefix']}…  scopes={k['scopes'] or '*'}"
                f"{' read-only' if k['read_only'] else ''}"
                f"{' REVOKED' if k['revoked'] else ''}"
                for k in keys
            )
            or "(no keys)",
        )
    return 0


def add_key(command: Command) -> None:
    p = command("key", cmd_key, "create, revoke or list API keys (the local server sees them at once)")
    p.add_argument("action", choices=["create", "revoke", "list"])
    p.add_argument("target", help="TENANT for create and list, KEY_ID for revoke")
    p.add_argument("--scopes", action="append", help="comma-separated scopes the key may use (default: all)")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("--expires-in", type=float, metavar="DAYS")
