"""Development tools, not shipped: the fake Discord, a throwaway PostgreSQL server, the demo."""
