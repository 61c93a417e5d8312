// Measures CaDiCaL on one 25x25 formula as crates/solver/src/sat.rs uses it
// (a solve, the clause that forbids the solution found, a second solve),
// with CaDiCaL options set one by one, and prints each solve's CPU seconds
// and conflicts: conflicts are what the load does not move. Built and run
// by scripts/sat25-options.sh against the CaDiCaL sources the `cadical`
// crate vendors, so it measures the solver the binary links.
//
//   sat25-driver FORMULA.cnf [name=value ...] [cubes=DEPTH]
//
// `cubes=DEPTH` proves uniqueness by cube and conquer instead: CaDiCaL's
// look-ahead splits the formula with the blocking clause into cubes of
// DEPTH literals, and a fresh solver refutes them one by one under
// assumptions (what it learns carries over); it prints the largest
// cube's conflicts and how many of its literals the solution satisfies.
//
// CaDiCaL 1.9.5 has no public accessor for its counters, so the internal
// statistics are read through the solver's private `internal` pointer.
#define private public
#include "internal.hpp"
#undef private
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static double cpu_seconds() { return (double)clock() / CLOCKS_PER_SEC; }

// Proves that the formula has no solution besides the one `blocking`
// forbids, by cube and conquer from scratch (see the header), and prints
// what it cost.
template <class Configure>
static int cube_and_conquer(const std::vector<int> &formula,
                            const std::vector<int> &blocking, int depth,
                            Configure configure) {
  auto load = [&](CaDiCaL::Solver &s) {
    for (int lit : formula)
      s.add(lit);
    for (int lit : blocking)
      s.add(lit);
    s.add(0);
  };
  double start = cpu_seconds();
  CaDiCaL::Solver cuber;
  cuber.set("quiet", 1); // the look-ahead reports every probe otherwise
  load(cuber);
  auto cubes = cuber.generate_cubes(depth);
  double cubed = cpu_seconds();
  CaDiCaL::Solver conquer;
  configure(conquer);
  load(conquer);
  long largest = 0;
  size_t agreeing = 0, size = 0;
  int refuted = 0;
  for (auto &cube : cubes.cubes) {
    long before = conquer.internal->stats.conflicts;
    for (int lit : cube)
      conquer.assume(lit);
    refuted += conquer.solve() == 20;
    long spent = conquer.internal->stats.conflicts - before;
    if (spent > largest) {
      // The solution sets a literal true exactly when the blocking clause
      // holds its negation.
      largest = spent, size = cube.size(), agreeing = 0;
      for (int lit : cube)
        agreeing += (lit > 0) == (std::find(blocking.begin(), blocking.end(),
                                            -std::abs(lit)) != blocking.end());
    }
  }
  printf("proof by %zu cubes of depth %d (%.2f s to cut), %d refuted: %.2f s "
         "%ld conflicts; the largest cube %ld, its literals agreeing with the "
         "solution %zu of %zu\n",
         cubes.cubes.size(), depth, cubed - start, refuted,
         cpu_seconds() - cubed, (long)conquer.internal->stats.conflicts,
         largest, agreeing, size);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FORMULA.cnf [name=value ...] [cubes=DEPTH]\n",
            argv[0]);
    return 2;
  }
  CaDiCaL::Solver solver;
  int cube_depth = 0;
  std::vector<std::pair<std::string, int>> options;
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    if (eq == std::string::npos) {
      fprintf(stderr, "%s: not name=value\n", argv[i]);
      return 2;
    }
    if (arg.substr(0, eq) == "cubes")
      cube_depth = atoi(arg.c_str() + eq + 1);
    else
      options.emplace_back(arg.substr(0, eq), atoi(arg.c_str() + eq + 1));
  }
  // What sat.rs asks the crate for, then the options given.
  auto configure = [&](CaDiCaL::Solver &s) {
    s.configure("sat");
    for (auto &[name, value] : options)
      if (!s.set(name.c_str(), value)) {
        fprintf(stderr, "%s: not an option\n", name.c_str());
        exit(2);
      }
  };
  configure(solver);
  std::ifstream in(argv[1]);
  if (!in) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  std::string line;
  int vars = 0;
  // Every literal read, clauses ended by 0: kept only for `cubes=`, whose
  // solvers start from scratch.
  std::vector<int> formula;
  while (getline(in, line)) {
    if (line.empty() || line[0] == 'c')
      continue;
    if (line[0] == 'p') {
      sscanf(line.c_str(), "p cnf %d", &vars);
      continue;
    }
    std::istringstream literals(line);
    int lit;
    while (literals >> lit) {
      solver.add(lit);
      if (cube_depth > 0)
        formula.push_back(lit);
    }
  }
  auto conflicts = [&] { return (long)solver.internal->stats.conflicts; };
  double start = cpu_seconds();
  int first = solver.solve();
  double solved = cpu_seconds();
  long first_conflicts = conflicts();
  printf("first %s %.2f s %ld conflicts\n", first == 10 ? "sat" : "unsat",
         solved - start, first_conflicts);
  if (first != 10)
    return 0;
  // Collected first: adding a clause leaves the satisfied state, after
  // which the solution can no longer be read.
  std::vector<int> blocking;
  for (int v = 1; v <= vars; v++)
    if (solver.val(v) > 0)
      blocking.push_back(-v);
  if (cube_depth > 0)
    return cube_and_conquer(formula, blocking, cube_depth, configure);
  for (int lit : blocking)
    solver.add(lit);
  solver.add(0);
  int second = solver.solve();
  printf("proof %s %.2f s %ld conflicts\n",
         second == 20 ? "unsat (unique)" : "sat (a second solution)",
         cpu_seconds() - solved, conflicts() - first_conflicts);
  return 0;
}
