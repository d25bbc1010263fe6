// The Python module solitaire_native: type conversions only, no game logic. Each subsystem's
// classes and functions are bound in its own file of this folder (bindings.hpp lists them).
#include "bindings.hpp"

NB_MODULE(solitaire_native, m) {
  namespace sb = solitaire::bindings;
  m.doc() = "Native core of solitaire-rl: the exact Pyramid and Klondike solvers (see solitaire_rl.agents.solver).";
  sb::bind_common(m);
  sb::bind_pyramid_solver(m);
  sb::bind_klondike_solver(m);
  sb::bind_klondike_planners(m);
  sb::bind_batch_envs(m);
  sb::bind_policy_inputs(m);
}
