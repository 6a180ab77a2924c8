"""The chat layer every frontend shares: the core that turns a line or a click into replies, and how
replies are drawn and worded (presenter, buttons, pings, replays, pictures of standings and ratings)."""
