"""ALFRED on the built-in simulator: trajectories, start states, goal conditions, expert replay."""
