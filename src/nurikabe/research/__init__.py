"""Research tools: exhaustive enumeration of small grids, island shapes, scalable families.

Each module here owns one study; they build on `solver` and `logic` and are not imported
by the core, so `import nurikabe` stays fast.
"""
