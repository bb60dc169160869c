"""Words for people: narration of actions and explanations of results."""
