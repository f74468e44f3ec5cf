"""The PDDL domain of household tasks (ALFRED's and TEACh's actions and their effects).

One untyped object set; static type facts (``pickupable``, ``basin``, ``microwave``, ...)
say what each object is. The agent is ``at`` one object at a time (``goto``); an object
whose location is unknown is ``unlocated`` and must be found first (``search``). The
appliance rules are conditional effects of the action that completes them, as in AI2-THOR:
a faucet switched on cleans (and fills) what is in the basins it feeds and records it as
cleaned (ALFRED); a microwave is switched on with its door closed (the Follower closes it
first) and then heats and cooks its contents (heated); a
lit burner cooks what is in the pot/pan on it and boils a potato in a pot of water (also
when the pot or the potato is put there while it burns); a toaster toasts bread slices;
the coffee machine fills a mug in it with coffee; the fridge chills what goes in and
records it as cooled when closed. Slicing makes the pieces (``piece-of``, declared ahead
as placeholders) present where the whole was, cooked if it was. A knife is not put down
while something marked ``must-slice`` is whole (``slices-pending``; ``planner.knife_kept``
marks what a plan would otherwise fetch the knife again for). A bread slice the goal wants
toasted on a dish goes there toasted, and its loaf not at all (``toast-first``;
``planner.problem._serving_order``).

Grounding cost: a conditional effect quantified over two variables is instantiated for
every pair of objects for every ground action, so what lies under a tap or in a vessel on a
burner is a derived predicate (``under-tap``, ``on-in-vessel``, ``in-water-pot``) and the
effects quantify over one variable (same plans, ~20% less translation time).
"""

from __future__ import annotations

# action name -> (Subgoal action, index of the object parameter, index of the receptacle parameter)
SUBGOAL_OF = {
    "pickup": ("PickupObject", 0, None),
    "put": ("PutObject", 0, 1),
    "open": ("OpenObject", 0, None),
    "close": ("CloseObject", 0, None),
    "toggle-on": ("ToggleObjectOn", 0, None),
    "toggle-off": ("ToggleObjectOff", 0, None),
    "slice": ("SliceObject", 0, None),
    "pour": ("PourObject", 0, 1),
    "search": ("GotoLocation", 0, None),
}

STATIC = (
    "pickupable", "receptacle", "openable", "toggleable", "sliceable", "cookable", "fillable",
    "knife", "basin", "faucet", "microwave", "fridge", "burner", "pot", "vessel", "toaster",
    "coffeemachine", "breadslice", "potato", "plant", "single",
)

DOMAIN = """
(define (domain household)
 (:requirements :adl :derived-predicates)
 (:predicates
  (pickupable ?o) (receptacle ?o) (openable ?o) (toggleable ?o) (sliceable ?o) (cookable ?o)
  (fillable ?o) (knife ?o) (basin ?o) (faucet ?o) (microwave ?o) (fridge ?o) (burner ?o)
  (pot ?o) (vessel ?o) (toaster ?o) (coffeemachine ?o) (breadslice ?o) (potato ?o) (plant ?o)
  (single ?o) (can-put ?o ?r) (toast-first ?o ?r) (controls ?s ?t) (piece-of ?p ?w)
  (present ?o) (unlocated ?o) (at ?o) (holding ?o) (handempty) (in ?o ?r) (opened ?o) (on ?o)
  (sliced ?o) (dirty ?o) (water ?o) (coffee ?o) (hot ?o) (cold ?o) (cooked ?o) (boiled ?o)
  (cleaned ?o) (heated ?o) (cooled ?o) (must-slice ?o)
  (within ?o ?r) (slices-pending) (running ?b) (lit-under ?v) (shut-in ?o) (under-tap ?s ?x) (on-in-vessel ?x ?s) (in-water-pot ?x ?s))

 (:derived (within ?o ?r) (or (in ?o ?r) (exists (?m) (and (in ?o ?m) (within ?m ?r)))))
 (:derived (shut-in ?o) (exists (?r) (and (in ?o ?r) (or (and (openable ?r) (not (opened ?r))) (shut-in ?r)))))
 (:derived (under-tap ?s ?x) (exists (?b) (and (controls ?s ?b) (in ?x ?b))))
 (:derived (on-in-vessel ?x ?s) (exists (?v) (and (vessel ?v) (in ?v ?s) (in ?x ?v))))
 (:derived (in-water-pot ?x ?s) (exists (?v) (and (pot ?v) (water ?v) (in ?v ?s) (in ?x ?v))))
 (:derived (running ?b) (and (basin ?b) (exists (?f) (and (controls ?f ?b) (on ?f)))))
 (:derived (lit-under ?v) (and (vessel ?v) (exists (?b) (and (burner ?b) (on ?b) (in ?v ?b)))))
 (:derived (slices-pending) (exists (?w) (and (must-slice ?w) (not (sliced ?w)))))

 (:action goto
  :parameters (?o)
  :precondition (and (present ?o) (not (at ?o)))
  :effect (and (forall (?x) (when (at ?x) (not (at ?x)))) (at ?o)))

 (:action search
  :parameters (?o)
  :precondition (unlocated ?o)
  :effect (and (not (unlocated ?o)) (present ?o) (forall (?x) (when (at ?x) (not (at ?x)))) (at ?o)))

 (:action pickup
  :parameters (?o)
  :precondition (and (at ?o) (handempty) (pickupable ?o) (present ?o) (not (shut-in ?o)))
  :effect (and (holding ?o) (not (handempty))
               (forall (?r) (when (in ?o ?r) (not (in ?o ?r))))))

 (:action put
  :parameters (?o ?r)
  :precondition (and (holding ?o) (at ?r) (present ?r) (can-put ?o ?r) (not (shut-in ?r))
                     (or (not (openable ?r)) (opened ?r))
                     (or (not (single ?r)) (forall (?x) (not (in ?x ?r))))
                     (or (not (knife ?o)) (not (slices-pending)))
                     (or (not (toast-first ?o ?r)) (cooked ?o)))
  :effect (and (in ?o ?r) (handempty) (not (holding ?o))
               (when (fridge ?r) (cold ?o))
               (when (running ?r) (not (dirty ?o)))
               (when (and (running ?r) (fillable ?o)) (and (water ?o) (not (coffee ?o))))
               (when (and (burner ?r) (on ?r) (vessel ?o)) (hot ?o))
               (forall (?x) (when (and (burner ?r) (on ?r) (vessel ?o) (in ?x ?o)) (hot ?x)))
               (forall (?x) (when (and (burner ?r) (on ?r) (vessel ?o) (in ?x ?o) (cookable ?x)) (cooked ?x)))
               (forall (?x) (when (and (burner ?r) (on ?r) (pot ?o) (water ?o) (in ?x ?o) (potato ?x)) (boiled ?x)))
               (when (lit-under ?r) (hot ?o))
               (when (and (lit-under ?r) (cookable ?o)) (cooked ?o))
               (when (and (lit-under ?r) (pot ?r) (water ?r) (potato ?o)) (boiled ?o))
               (when (and (toaster ?r) (on ?r) (breadslice ?o)) (and (hot ?o) (cooked ?o)))
               (when (and (coffeemachine ?r) (on ?r) (fillable ?o)) (and (coffee ?o) (not (water ?o))))))

 (:action open
  :parameters (?r)
  :precondition (and (at ?r) (openable ?r) (not (opened ?r)) (not (shut-in ?r)) (or (not (microwave ?r)) (not (on ?r))))
  :effect (opened ?r))

 (:action close
  :parameters (?r)
  :precondition (and (at ?r) (opened ?r))
  :effect (and (not (opened ?r))
               (forall (?x) (when (and (fridge ?r) (in ?x ?r)) (cooled ?x)))))

 (:action toggle-on
  :parameters (?s)
  :precondition (and (at ?s) (toggleable ?s) (not (on ?s)) (present ?s) (not (shut-in ?s))
                     (or (not (microwave ?s)) (not (opened ?s))))
  :effect (and (on ?s)
               (forall (?x) (when (and (faucet ?s) (under-tap ?s ?x)) (and (not (dirty ?x)) (cleaned ?x))))
               (forall (?x) (when (and (faucet ?s) (under-tap ?s ?x) (fillable ?x)) (and (water ?x) (not (coffee ?x)))))
               (forall (?x) (when (and (microwave ?s) (not (opened ?s)) (in ?x ?s)) (and (hot ?x) (heated ?x))))
               (forall (?x) (when (and (microwave ?s) (not (opened ?s)) (in ?x ?s) (cookable ?x)) (cooked ?x)))
               (forall (?v) (when (and (burner ?s) (in ?v ?s) (vessel ?v)) (hot ?v)))
               (forall (?x) (when (and (burner ?s) (on-in-vessel ?x ?s)) (hot ?x)))
               (forall (?x) (when (and (burner ?s) (on-in-vessel ?x ?s) (cookable ?x)) (cooked ?x)))
               (forall (?x) (when (and (burner ?s) (in-water-pot ?x ?s) (potato ?x)) (boiled ?x)))
               (forall (?x) (when (and (toaster ?s) (in ?x ?s) (breadslice ?x)) (and (hot ?x) (cooked ?x))))
               (forall (?x) (when (and (coffeemachine ?s) (in ?x ?s) (fillable ?x)) (and (coffee ?x) (not (water ?x)))))))

 (:action toggle-off
  :parameters (?s)
  :precondition (and (at ?s) (on ?s))
  :effect (not (on ?s)))

 (:action slice
  :parameters (?w ?k)
  :precondition (and (at ?w) (sliceable ?w) (present ?w) (not (sliced ?w)) (holding ?k) (knife ?k)
                     (not (shut-in ?w)))
  :effect (and (sliced ?w) (not (present ?w))
               (forall (?p) (when (piece-of ?p ?w) (present ?p)))
               (forall (?p ?r) (when (and (piece-of ?p ?w) (in ?w ?r)) (in ?p ?r)))
               (forall (?p) (when (and (piece-of ?p ?w) (cooked ?w)) (cooked ?p)))
               (forall (?r) (when (in ?w ?r) (not (in ?w ?r))))))

 (:action pour
  :parameters (?o ?t)
  :precondition (and (holding ?o) (at ?t) (present ?t) (not (shut-in ?t)) (or (water ?o) (coffee ?o)) (or (fillable ?t) (basin ?t)))
  :effect (and (not (water ?o)) (not (coffee ?o))
               (when (and (water ?o) (fillable ?t)) (water ?t))
               (when (and (coffee ?o) (fillable ?t) (not (plant ?t))) (coffee ?t))
               (when (and (coffee ?o) (plant ?t)) (water ?t))))
)
"""
