; Chat-bot agent (Figure 12 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”). No final state: the user (env) ends the session.
(define chat-bot-agent
  (:states
    (Chat-Bot (:text "Chat Bot:"))
    (User (:text "User:") (:flags :env-input))
  )
  (:behavior
    (always
      (next Chat-Bot User)
    )
  )
)
