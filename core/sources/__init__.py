"""One resolver per source type (``core.sources.<type>``), registered in ``registry``."""
