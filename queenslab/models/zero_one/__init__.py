"""The 0-1 translators: one module per paradigm, each solving any ``BoolModel``.

A problem kind states its question once as a ``core.model.BoolModel``; these modules
translate that form into each solver's own (``cpsat``: CP-SAT directly; ``milp``: Pyomo,
HiGHS by default; ``maxsat``: RC2 over clauses, cardinality encodings and soft clauses;
``sat``: the same CNF with an incremental bound on the objective) and report an
``Outcome``. ``optimize(model, run, settings)`` proves the optimum or reports the best
answer and bound a limit left; ``solutions(model, run, settings)`` streams every answer of
a model without an objective, once each on ``model.answer`` (``milp`` and ``maxsat`` by
no-goods over those variables). What a translator is, and every one by name, a plug-in's
too: ``translator``.

``backend.KindModels`` gives the model backends the kinds through them: it builds the
kind's model and optimises it in a forked child (``runtime.forked``), so the deadline and
Ctrl-C end building and solving alike, as the backends' own optimisations do; a stream
runs in this process and asks ``run.should_stop`` while it builds and between solutions.
"""
