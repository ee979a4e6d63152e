import { Button, type ButtonProps, Typography } from 'antd';
import type { MouseEvent, ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ROUTES } from '../../lib/route-table.ts';

const EMBED_PATHS: readonly string[] = [ROUTES.onlyChatHistory.path, ROUTES.onlyUserProfile.path];

/** Whether this is one of the embeddable pages (/only-…), whose links go to each other. */
export function useEmbedded(): boolean {
  return EMBED_PATHS.includes(useLocation().pathname);
}

/**
 * A click on an in-app `<a href>` followed by the router. The anchor stays a real link (copy it,
 * open it in a new tab), but a plain click must not load the page again: an embed whose browser
 * refuses it storage keeps its session in memory, and a reload would sign it out.
 */
function useFollow(href: string) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    // Inside a clickable table row: the link, not the row, takes the click.
    event.stopPropagation();
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
}

/** An antd button that is a link to a page of the app. */
export function RouteButton({ href, ...props }: Omit<ButtonProps, 'href' | 'onClick'> & { href: string }) {
  const follow = useFollow(href);
  return <Button {...props} href={href} onClick={follow} />;
}

interface TextLinkProps {
  href: string;
  children: ReactNode;
  strong?: boolean;
  ellipsis?: boolean;
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** A text link (antd's colours) to a page of the app. */
export function RouteTextLink({ href, children, ...props }: TextLinkProps) {
  const follow = useFollow(href);
  return (
    <Typography.Link {...props} href={href} onClick={follow}>
      {children}
    </Typography.Link>
  );
}
