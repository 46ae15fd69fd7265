"""One resolver per source type (``flowctx_core.sources.<type>``), registered in ``registry``."""
