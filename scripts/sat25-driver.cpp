// Measures CaDiCaL on one 25x25 formula as crates/solver/src/sat.rs uses it
// (a solve, the clause that forbids the solution found, a second solve),
// with CaDiCaL options set one by one, and prints each solve's CPU seconds
// and conflicts: conflicts are what the load does not move. Built and run
// by scripts/sat25-options.sh against the CaDiCaL sources the `cadical`
// crate vendors, so it measures the solver the binary links.
//
//   sat25-driver FORMULA.cnf [name=value ...]
//
// CaDiCaL 1.9.5 has no public accessor for its counters, so the internal
// statistics are read through the solver's private `internal` pointer.
#define private public
#include "internal.hpp"
#undef private
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static double cpu_seconds() { return (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FORMULA.cnf [name=value ...]\n", argv[0]);
    return 2;
  }
  CaDiCaL::Solver solver;
  solver.configure("sat"); // what sat.rs asks the crate for
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    if (eq == std::string::npos ||
        !solver.set(arg.substr(0, eq).c_str(), atoi(arg.c_str() + eq + 1))) {
      fprintf(stderr, "%s: not an option\n", argv[i]);
      return 2;
    }
  }
  std::ifstream in(argv[1]);
  if (!in) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  std::string line;
  int vars = 0;
  while (getline(in, line)) {
    if (line.empty() || line[0] == 'c')
      continue;
    if (line[0] == 'p') {
      sscanf(line.c_str(), "p cnf %d", &vars);
      continue;
    }
    std::istringstream literals(line);
    int lit;
    while (literals >> lit)
      solver.add(lit);
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
  for (int lit : blocking)
    solver.add(lit);
  solver.add(0);
  int second = solver.solve();
  printf("proof %s %.2f s %ld conflicts\n",
         second == 20 ? "unsat (unique)" : "sat (a second solution)",
         cpu_seconds() - solved, conflicts() - first_conflicts);
  return 0;
}
