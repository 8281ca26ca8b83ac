; Chain-of-thought agent (Figure 10 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”).
(define chain-of-thought-agent
  (:states
    (Thought (:text "Let's think step by step. "))
    (Answer (:text "Answer:"))
  )
  (:behavior
    (next Thought Answer)
  )
)
