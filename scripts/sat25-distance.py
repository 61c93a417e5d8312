#!/usr/bin/env python3
"""Measures a split of a 25x25 uniqueness proof (crates/solver/src/sat.rs)
by the distance from the known solution: how many conflicts each side
costs, to see whether a split shares the proof's work out.

Reads a `line-K.blocked.cnf` that scripts/sat25-options.sh writes (the
formula and, last, the clause forbidding the solution: one literal "this
cell does not hold its solution digit" per empty cell) and prints, on
standard output, the same formula with "at most N of those cells differ"
(`atmost N`) or "at least N differ" (`atleast N`) added as Sinz's
sequential counter. Solve the result with the driver, which reports an
unsatisfiable formula's conflicts:

    scripts/sat25-distance.py target/sat25/cnf/line-10.blocked.cnf atmost 40 > d.cnf
    target/sat25/sat25-driver d.cnf
"""
import sys


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[2] not in ("atmost", "atleast"):
        sys.exit(f"usage: {sys.argv[0]} FORMULA.blocked.cnf atmost|atleast N")
    path, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    clauses = [line.split()[:-1] for line in open(path) if line.strip() and line[0] not in "cp"]
    clauses = [[int(t) for t in c] for c in clauses]
    differs = clauses[-1]  # the blocking clause
    variables = max(abs(lit) for c in clauses for lit in c)
    # "at least N differ" is "at most (cells - N) agree".
    lits = differs if mode == "atmost" else [-lit for lit in differs]
    bound = n if mode == "atmost" else len(differs) - n
    if not 0 < bound < len(lits):
        sys.exit(f"{path}: N must leave a bound between 1 and {len(lits) - 1}")

    def fresh() -> int:
        nonlocal variables
        variables += 1
        return variables

    # s[i][j]: at least j+1 of lits[0..=i] are true (Sinz 2005).
    s = [[fresh() for _ in range(bound)] for _ in lits]
    clauses.append([-lits[0], s[0][0]])
    clauses.extend([-s[0][j]] for j in range(1, bound))
    for i in range(1, len(lits)):
        clauses.append([-lits[i], s[i][0]])
        clauses.append([-s[i - 1][0], s[i][0]])
        for j in range(1, bound):
            clauses.append([-lits[i], -s[i - 1][j - 1], s[i][j]])
            clauses.append([-s[i - 1][j], s[i][j]])
        clauses.append([-lits[i], -s[i - 1][bound - 1]])
    print(f"p cnf {variables} {len(clauses)}")
    for c in clauses:
        print(" ".join(map(str, c)), 0)


if __name__ == "__main__":
    main()
