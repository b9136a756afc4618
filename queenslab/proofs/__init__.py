"""Proofs of unsatisfiability, checked here: a solver's "no" becomes evidence.

``drat`` turns a solver's DRAT proof into LRAT by finding the hints of each lemma the
refutation uses (its reading in ``drat_read``, its propagation in ``drat_kernel``);
``lrat`` checks an LRAT proof step by step from its hints alone; ``cubes`` checks a split
proof whole (the cubes cover every case, each cube's formula is the formula under it);
``reading`` reports the bytes of a proof file read. ``models.zero_one.proved`` runs the
CaDiCaL program on a decide's CNF and keeps both proofs (``queens decide --proof``);
``queens check-proof`` checks any solver's.
"""
