"""`repotrans sync`: a range of upstream Java commits carried into the C# port, each change judged by\nthe port's own tests (a run variant; its stages are in steps.py)."""
