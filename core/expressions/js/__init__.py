"""JavaScript values and built-ins, for the MemberJunction (``mj``) dialect."""
