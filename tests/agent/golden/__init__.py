"""Golden questions over generated datasets, answered by the offline planner through the real graph
and compared with references computed directly with pandas."""
