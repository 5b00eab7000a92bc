"""The verify node's logic: number grounding and fake-data detection (see docs/VERIFY.md)."""
