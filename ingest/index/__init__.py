"""The room's indexes: the SQLite manifest with its keyword index, the offline embedders and the Chroma store."""
