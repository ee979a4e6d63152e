import {
  ApartmentOutlined,
  ApiOutlined,
  BookOutlined,
  BranchesOutlined,
  CodeOutlined,
  DeploymentUnitOutlined,
  EditOutlined,
  FileTextOutlined,
  FilterOutlined,
  FlagOutlined,
  MergeCellsOutlined,
  MessageOutlined,
  OrderedListOutlined,
  PlayCircleOutlined,
  QuestionCircleOutlined,
  RedoOutlined,
  RobotOutlined,
  SyncOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { WorkflowNodeType } from '@athena/contract';
import type { ReactNode } from 'react';

export const KIND_ICONS: Record<WorkflowNodeType, ReactNode> = {
  start: <PlayCircleOutlined />,
  end: <FlagOutlined />,
  answer: <MessageOutlined />,
  llm: <RobotOutlined />,
  knowledge: <BookOutlined />,
  classifier: <ApartmentOutlined />,
  extractor: <FilterOutlined />,
  if_else: <BranchesOutlined />,
  template: <FileTextOutlined />,
  code: <CodeOutlined />,
  http: <ApiOutlined />,
  aggregator: <MergeCellsOutlined />,
  assigner: <EditOutlined />,
  list_operator: <OrderedListOutlined />,
  iteration: <UnorderedListOutlined />,
  loop: <SyncOutlined />,
  agent: <TeamOutlined />,
  sub_workflow: <DeploymentUnitOutlined />,
  unsupported: <QuestionCircleOutlined />,
};

export const RetryIcon = RedoOutlined;
