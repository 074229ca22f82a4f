"""The lifecycle (DESIGN §7): ``sweep`` decays memories and moves them between tiers page by page;
``service`` runs it for one tenant or all and rebuilds a tenant's search index."""
