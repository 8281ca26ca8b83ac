; Chain-of-thought agent (paper 003, Figure 10).
(define chain-of-thought-agent
  (:states
    (Thought (:text "Let's think step by step. "))
    (Answer (:text "Answer:"))
  )
  (:behavior
    (next Thought Answer)
  )
)
