"""The language layer: message catalogs, how cards are written and read. Imports only engine."""
