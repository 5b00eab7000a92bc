"""Accuracy of the offline planner through the real graph, per question set: how many answers are right,
how many are wrong yet shown as verified, and how many were honestly refused, intercepted or failed."""
