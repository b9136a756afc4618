"""The 0-1 translators: one module per paradigm, each solving any ``BoolModel``.

A problem kind states its question once as a ``problems.model.BoolModel``; these modules
translate that form into each solver's own (``cpsat``: CP-SAT directly; ``milp``: Pyomo,
HiGHS by default; ``maxsat``: RC2 over clauses, cardinality encodings and soft clauses;
``sat``: the same CNF with an incremental bound on the objective) and report an
``Outcome``. ``optimize(model, run, settings)`` proves the optimum or reports the best
answer and bound a limit left; ``solutions(model, run, settings)`` (``cpsat``, ``sat``)
streams every answer of a model without an objective, once each on ``model.answer``.

Each translator builds and solves an optimisation in a forked child
(``runtime.forked``), so the time limit and Ctrl-C end it during building too; a
stream is built in this process, asking ``run.should_stop`` as it goes.
"""
