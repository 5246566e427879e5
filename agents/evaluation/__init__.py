"""Scoring the reviewers against CUAD-style labels (labels.csv + contracts/ + txt/)."""
