"""Episodes: what a benchmark instance is (start state, task, language, expert length),
its JSON form, the floor-plan splits, ALFRED episodes and the TATC episode generator."""
