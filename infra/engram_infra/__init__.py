"""The Engram CDK app: one stack composed of one construct per concern (STYLE §15)."""
