"""MemberJunction flow agents: their MetadataSync files (``metadata/``) and what
``@memberjunction/ai-agents`` 5.51.3's ``FlowAgentType`` does with them (``flow/``)."""
