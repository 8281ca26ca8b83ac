; ReACT agent (Figure 9 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”). Add (:allowed "Search" "Lookup") to Action to restrict tool names.
(define react-agent
  (:states
    (Thought (:text "Thought:"))
    (Action (:text "Action:"))
    (Action-Input (:text "Action Input:"))
    (Observation (:text "Observation:") (:flags :env-input))
    (Final-Thought (:text "Final Thought:"))
    (Answer (:text "Answer:"))
  )
  (:behavior
    (next
      (until
        (next Thought Action Action-Input Observation)
        Final-Thought)
      Answer)
  )
)
