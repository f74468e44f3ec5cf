"""Oracle experts: scripted from the simulator's full state (named as oracles wherever used).

``views`` finds poses that see an object, ``actor`` turns skills into Follower actions,
``solver`` completes a task by fixing what Progress Check reports unsatisfied.
"""
