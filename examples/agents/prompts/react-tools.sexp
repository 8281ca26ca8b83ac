; The paper's ReACT agent (Figure 9) with its tools named and the paper's cap of 3 loops.
(define react-agent
  (:states
    (Thought (:text "Thought:"))
    (Action (:text "Action:") (:allowed "Search" "Lookup"))
    (Action-Input (:text "Action Input:"))
    (Observation (:text "Observation:") (:flags :env-input))
    (Final-Thought (:text "Final Thought:"))
    (Answer (:text "Answer:")))
  (:behavior
    (next (until (next Thought Action Action-Input Observation) Final-Thought) Answer))
  (:max-loops 3))
