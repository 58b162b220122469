"""`make demo`: a whole game played on the fake Discord, written as a page."""
