"""Monthly seasons of a place's leaderboards (issue 24): counted as ratings are applied, closed once."""
