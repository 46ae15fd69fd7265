"""``flowctx test``: test files of routes and values, their runs, coverage and witnesses.

Every expectation is judged by the core calls ``matrix``, ``routes``, ``check`` and ``prompt``
make (no second implementation); coverage reads the decisions and explain trees the runs made;
witnesses are searched for and confirmed with the same engines.
"""
